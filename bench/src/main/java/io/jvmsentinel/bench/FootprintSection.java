package io.jvmsentinel.bench;

import io.jvmsentinel.daemon.lab.LabProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Item 3 of issue 7: the daemon's own cost at steady state, with 1 and with 10 targets (the lab's
 * {@code healthy} service, {@code -Xmx64m}), run with the container image's JVM flags: RSS ({@code
 * VmRSS}) sampled through the window, heap used/committed ({@code jstat -gc}: the daemon does not
 * export its own JVM metrics), CPU seconds per minute ({@code /proc/<pid>/stat}) while Prometheus
 * scrapes every 15 s; then {@code /metrics} latency over many back-to-back scrapes.
 */
final class FootprintSection implements BenchSection {

  @Override
  public String name() {
    return "footprint";
  }

  @Override
  public Result run(BenchContext c) throws Exception {
    Result result = new Result();
    Duration warmup = c.pick(Duration.ofSeconds(5), Duration.ofSeconds(45));
    Duration window = c.pick(Duration.ofSeconds(8), Duration.ofSeconds(60));
    int scrapes = c.pick(300, 2000);
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("warmup_s", warmup.toSeconds());
    settings.put("window_s", window.toSeconds());
    settings.put("latency_scrapes", scrapes);
    settings.put("daemon_jvm_flags", c.daemonFlags());
    settings.put("targets_scenario", "healthy -Xmx64m");
    result.put("settings", settings);
    List<Integer> counts = c.quick() ? List.of(1) : List.of(1, 10);
    for (int count : counts) {
      Map<String, Object> m = measure(c, count, warmup, window, scrapes);
      result.put("targets_" + count, m);
      @SuppressWarnings("unchecked")
      Map<String, Object> latency = (Map<String, Object>) m.get("metrics_latency_ms");
      result.line(
          "%2d target(s): RSS %.1f MB (max %.1f), heap used %s MB of %s committed, CPU %.2f s/min"
              + " (%.2f%% of a core); /metrics %s KB p50 %s ms, p99 %s ms, max %s ms over %d"
              + " scrapes (daemon CPU %s ms per scrape)",
          count,
          (Double) m.get("rss_mb_median"),
          (Double) m.get("rss_mb_max"),
          m.get("heap_used_mb"),
          m.get("heap_committed_mb"),
          (Double) m.get("cpu_s_per_min"),
          (Double) m.get("cpu_pct_of_core"),
          m.get("metrics_body_kb"),
          latency.get("p50"),
          latency.get("p99"),
          latency.get("max"),
          scrapes,
          m.get("metrics_daemon_cpu_ms_per_scrape"));
      if (count == 1) {
        double rss = (Double) m.get("rss_mb_max");
        double cpu = (Double) m.get("cpu_pct_of_core");
        double p99 = (Double) latency.get("p99");
        result.target(
            "daemon RSS with one target",
            "<= 128 MB",
            String.format("%.1f MB (max)", rss),
            rss <= 128);
        result.target(
            "daemon CPU at steady state, one target",
            "<= 2% of one core",
            String.format("%.2f%%", cpu),
            cpu <= 2);
        result.target(
            "/metrics p99, one target", "<= 10 ms", String.format("%.2f ms", p99), p99 <= 10);
      }
    }
    if (c.quick()) {
      result.line("10 targets: skipped in --quick");
    }
    return result;
  }

  private static Map<String, Object> measure(
      BenchContext c, int count, Duration warmup, Duration window, int scrapes) throws Exception {
    List<LabProcess> labs = new ArrayList<>();
    try {
      StringBuilder yaml = new StringBuilder("targets:\n");
      for (int i = 0; i < count; i++) {
        LabProcess lab = c.startLab("healthy", List.of("-Xmx64m"), List.of(), e -> {});
        labs.add(lab);
        yaml.append("  - name: t").append(i).append("\n    jmx: ").append(lab.jmxHostPort());
        yaml.append('\n');
      }
      c.log("footprint: %d target(s) up, starting the daemon", count);
      try (DaemonProcess daemon = c.startDaemon("footprint-" + count, yaml.toString())) {
        BenchContext.sleep(warmup);
        List<Double> rss = new ArrayList<>();
        double cpu0 = Procs.cpuSeconds(daemon.pid());
        long t0 = System.nanoTime();
        Scraper prometheus = new Scraper(c, daemon.metricsUrl(), Duration.ofSeconds(15));
        try {
          long end = t0 + window.toNanos();
          while (System.nanoTime() < end) {
            rss.add(Procs.rssMb(daemon.pid()));
            Thread.sleep(Math.min(5_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
          }
        } finally {
          prometheus.close();
        }
        double minutes = (System.nanoTime() - t0) / 60e9;
        double cpuPerMin = (Procs.cpuSeconds(daemon.pid()) - cpu0) / minutes;
        rss.add(Procs.rssMb(daemon.pid()));
        double[] heap = Procs.heapMb(c.options.daemonJavaHome(), daemon.pid());

        BackToBackScrapes scraped =
            BackToBackScrapes.run(c, daemon, Math.min(50, scrapes / 10), scrapes);
        List<Double> millis = scraped.millis();
        int bodyBytes = scraped.bodyBytes();
        double scrapeCpuMs = scraped.daemonCpuMsPerScrape();
        double rssAfterScrapes = Procs.rssMb(daemon.pid());

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("targets", count);
        m.put("rss_mb_median", Stats.round(Stats.median(rss), 1));
        m.put("rss_mb_max", Stats.round(Stats.max(rss), 1));
        m.put("rss_mb_after_latency_scrapes", Stats.round(rssAfterScrapes, 1));
        m.put("heap_used_mb", heap.length == 2 ? Stats.round(heap[0], 1) : null);
        m.put("heap_committed_mb", heap.length == 2 ? Stats.round(heap[1], 1) : null);
        m.put("cpu_s_per_min", Stats.round(cpuPerMin, 3));
        m.put("cpu_pct_of_core", Stats.round(cpuPerMin / 60 * 100, 3));
        m.put("metrics_body_kb", Stats.round(bodyBytes / 1024.0, 1));
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", Stats.round(Stats.percentile(millis, 50), 2));
        latency.put("p90", Stats.round(Stats.percentile(millis, 90), 2));
        latency.put("p99", Stats.round(Stats.percentile(millis, 99), 2));
        latency.put("max", Stats.round(Stats.max(millis), 2));
        latency.put("n", millis.size());
        m.put("metrics_latency_ms", latency);
        // Load-independent: the daemon's CPU per scrape (wall-clock latency includes waiting for
        // a core on a shared machine).
        m.put("metrics_daemon_cpu_ms_per_scrape", Stats.round(scrapeCpuMs, 2));
        m.put("load_1m", Machine.loadAverage().get("1m"));
        return m;
      }
    } finally {
      labs.forEach(LabProcess::close);
    }
  }
}
