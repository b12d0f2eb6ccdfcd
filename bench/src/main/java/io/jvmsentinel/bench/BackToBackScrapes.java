package io.jvmsentinel.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /metrics} scraped back to back over one kept-alive HTTP/1.1 connection (Java {@code
 * HttpClient}), as Prometheus does: the latency of each scrape after {@code warm} unmeasured ones,
 * the body size, and the daemon's CPU per scrape (load-independent, where wall-clock latency
 * includes waiting for a core on a shared machine).
 */
record BackToBackScrapes(List<Double> millis, int bodyBytes, double daemonCpuMsPerScrape) {

  static BackToBackScrapes run(BenchContext c, DaemonProcess daemon, int warm, int scrapes)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(daemon.metricsUrl()))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    List<Double> millis = new ArrayList<>();
    int bodyBytes = 0;
    double cpu0 = Procs.cpuSeconds(daemon.pid());
    for (int i = 0; i < warm + scrapes; i++) {
      long start = System.nanoTime();
      HttpResponse<byte[]> response = c.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      double took = (System.nanoTime() - start) / 1e6;
      if (response.statusCode() != 200) {
        throw new IllegalStateException("/metrics answered " + response.statusCode());
      }
      bodyBytes = response.body().length;
      if (i >= warm) {
        millis.add(took);
      }
    }
    double cpuMs = (Procs.cpuSeconds(daemon.pid()) - cpu0) * 1000 / (warm + scrapes);
    return new BackToBackScrapes(List.copyOf(millis), bodyBytes, cpuMs);
  }
}
