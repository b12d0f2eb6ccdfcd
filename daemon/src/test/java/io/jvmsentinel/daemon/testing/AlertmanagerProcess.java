package io.jvmsentinel.daemon.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A real Prometheus Alertmanager (the Debian package {@code prometheus-alertmanager}, installed by
 * {@code .ci/install-test-deps}) on a free loopback port, without clustering, routing to nowhere.
 */
public final class AlertmanagerProcess implements AutoCloseable {
  public static final String INSTALL =
      "run .ci/install-test-deps, or: apt-get install --no-install-recommends"
          + " prometheus-alertmanager";
  public static final String CONFIG =
      """
      route:
        receiver: nowhere
      receivers:
        - name: nowhere
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final URI base;
  private final HttpClient http = HttpClient.newHttpClient();

  private AlertmanagerProcess(Process process, URI base) {
    this.process = process;
    this.base = base;
  }

  /** Starts one with its files under {@code dir}, and waits until it is ready. */
  public static AlertmanagerProcess start(Path dir) throws IOException {
    return start(dir, CONFIG);
  }

  /** As {@link #start(Path)}, with this alertmanager.yml (inhibition rules, say). */
  public static AlertmanagerProcess start(Path dir, String configText) throws IOException {
    Path config = Files.writeString(dir.resolve("alertmanager.yml"), configText);
    int port = LoopbackPorts.freePort();
    URI base = URI.create("http://127.0.0.1:" + port);
    Process process =
        new ProcessBuilder(
                binary().toString(),
                "--config.file=" + config,
                "--storage.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("alertmanager.log").toFile())
            .start();
    AlertmanagerProcess alertmanager = new AlertmanagerProcess(process, base);
    await("Alertmanager ready at " + base + "/-/ready (log: " + dir + "/alertmanager.log)")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> process.isAlive() && alertmanager.get("/-/ready").statusCode() == 200);
    return alertmanager;
  }

  /** On PATH or in /usr/bin, under the Debian name or upstream's; never skipped when missing. */
  public static Path binary() {
    List<Path> dirs = new ArrayList<>();
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        dirs.add(Path.of(entry));
      }
    }
    dirs.add(Path.of("/usr/bin"));
    return dirs.stream()
        .flatMap(d -> Stream.of(d.resolve("prometheus-alertmanager"), d.resolve("alertmanager")))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "Prometheus Alertmanager not found (prometheus-alertmanager or alertmanager on"
                        + " PATH or in /usr/bin); "
                        + INSTALL));
  }

  public URI base() {
    return base;
  }

  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Posts alerts (a JSON array in API v2 form) as Prometheus would. */
  public void post(String alertsJson) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(base.resolve("/api/v2/alerts"))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(alertsJson))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError(
          "POST /api/v2/alerts: " + response.statusCode() + " " + response.body());
    }
  }

  /** The alerts it reports (it leaves out resolved ones) with alertname {@code rule}. */
  public List<JsonNode> alerts(String rule) throws IOException, InterruptedException {
    JsonNode all = JSON.readTree(get("/api/v2/alerts").body());
    return StreamSupport.stream(all.spliterator(), false)
        .filter(a -> a.path("labels").path("alertname").asText().equals(rule))
        .toList();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroyForcibly();
  }
}
