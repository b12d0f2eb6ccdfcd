package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.AlertmanagerProcess;
import io.jvmsentinel.daemon.testing.Jdks;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The central-alerting path end to end: a real Prometheus scrapes the daemon watching a lab target
 * in a thread storm, evaluates the shipped rules, and its alert reaches a real Alertmanager. Both
 * are the Debian packages (installed by .ci/install-test-deps).
 */
class PrometheusEndToEndIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void theShippedThreadStormRuleFiresInPrometheusAndReachesAlertmanager() throws Exception {
    PrometheusServer.assertInstalled();
    LabSpec spec = LabSpec.builder("thread-per-request").javaHome(Jdks.jdk17()).rate(400).build();
    Path daemonConfig = dir.resolve("sentinel.yaml");
    int alertmanagerPort = LoopbackPorts.freePort();
    int prometheusPort = LoopbackPorts.freePort();
    Process alertmanager = null;
    Process prometheus = null;
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30))) {
      Files.writeString(
          daemonConfig,
          "http:\n  listen: 127.0.0.1:0\ndetection:\n  enabled: false\ntargets:\n  - name: lab\n    jmx: "
              + lab.jmxHostPort()
              + "\n    pollInterval: 1s\n");
      try (SentinelDaemon daemon =
          SentinelDaemon.start(
              new ConfigLoader().load(Optional.of(daemonConfig), CliOverrides.NONE))) {
        Path amConfig =
            Files.writeString(dir.resolve("alertmanager.yml"), AlertmanagerProcess.CONFIG);
        alertmanager =
            new ProcessBuilder(
                    AlertmanagerProcess.binary().toString(),
                    "--config.file=" + amConfig,
                    "--storage.path=" + dir.resolve("am-data"),
                    "--web.listen-address=127.0.0.1:" + alertmanagerPort,
                    "--cluster.listen-address=")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("alertmanager.log").toFile())
                .start();
        Path rules = ObservabilityFiles.metricsRulesFile();
        Path promConfig =
            Files.writeString(
                dir.resolve("prometheus.yml"),
                """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                alerting:
                  alertmanagers:
                    - static_configs:
                        - targets: ['127.0.0.1:%d']
                scrape_configs:
                  - job_name: jvm-sentinel
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """
                    .formatted(rules, alertmanagerPort, daemon.httpPort()));
        prometheus = PrometheusServer.start(promConfig, dir, prometheusPort);

        // The rule has `for: 1m` over a 5m rate: at 400 starts/s the 5m rate passes 50/s after
        // about 40 s, so firing takes a little under two minutes.
        await("JvmThreadStorm firing in Prometheus (log: " + dir + "/prometheus.log)")
            .atMost(Duration.ofSeconds(240))
            .pollInterval(Duration.ofSeconds(2))
            .ignoreExceptions()
            .until(
                () ->
                    alerts(
                            "http://127.0.0.1:" + prometheusPort + "/api/v1/alerts",
                            "data",
                            "alerts")
                        .stream()
                        .anyMatch(
                            a ->
                                a.path("labels").path("alertname").asText().equals("JvmThreadStorm")
                                    && a.path("labels").path("target").asText().equals("lab")
                                    && a.path("state").asText().equals("firing")));
        await("JvmThreadStorm in Alertmanager (log: " + dir + "/alertmanager.log)")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .untilAsserted(
                () ->
                    assertThat(alerts("http://127.0.0.1:" + alertmanagerPort + "/api/v2/alerts"))
                        .anySatisfy(
                            a -> {
                              assertThat(a.path("labels").path("alertname").asText())
                                  .isEqualTo("JvmThreadStorm");
                              assertThat(a.path("labels").path("target").asText()).isEqualTo("lab");
                              assertThat(a.path("annotations").path("runbook_url").asText())
                                  .endsWith("alerts/runbooks/ThreadStorm.md");
                            }));
      }
    } finally {
      for (Process process : new Process[] {prometheus, alertmanager}) {
        if (process != null) {
          process.destroy();
          if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
          }
        }
      }
    }
  }

  private List<JsonNode> alerts(String url, String... path) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode node = JSON.readTree(response.body());
    for (String key : path) {
      node = node.path(key);
    }
    return StreamSupport.stream(node.spliterator(), false).toList();
  }
}
