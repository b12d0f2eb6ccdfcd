package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grafana's "JVM (Micrometer)" dashboard (id 4701) against a real lab target: a real Prometheus
 * scrapes the daemon, every panel's queries run with the dashboard's variables filled in as Grafana
 * would, and a panel shows data when one of its queries returns a series. Every panel on JVM
 * metrics must show data; the count is printed for docs/dashboards.md. The same daemon's DogStatsD
 * export must deliver every metric of Datadog's JVM dashboard that the daemon can produce.
 */
class StockDashboardsIT {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path dir;

  @Test
  void everyJvmPanelOfGrafanasJvmMicrometerDashboardShowsData() throws Exception {
    PrometheusServer.assertInstalled();
    Path fixture = StockDashboards.grafanaJvmMicrometer();
    List<StockDashboards.Panel> panels = StockDashboards.panels(fixture);
    Set<String> application = StockDashboards.applicationMetrics(fixture);
    List<StockDashboards.Panel> jvmPanels =
        panels.stream().filter(p -> !application.containsAll(p.metricNames())).toList();
    int prometheusPort = LoopbackPorts.freePort();
    LabSpec spec = LabSpec.builder("healthy").javaHome(Jdks.jdk17()).jvmArgs("-Xmx128m").build();
    Process prometheus = null;
    try (DatagramSocket agent = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon = startDaemon(lab.jmxHostPort(), agent.getLocalPort())) {
      String instance = "127.0.0.1:" + daemon.httpPort();
      Path config =
          Files.writeString(
              dir.resolve("prometheus.yml"),
              """
              global:
                scrape_interval: 1s
              scrape_configs:
                - job_name: jvm-sentinel
                  static_configs:
                    - targets: ['%s']
              """
                  .formatted(instance));
      prometheus = PrometheusServer.start(config, dir, prometheusPort);
      // A collection on the target: pauses, allocation and live data size get their first values.
      try (JMXConnector jmx = JMXConnectorFactory.connect(lab.jmxServiceUrl())) {
        jmx.getMBeanServerConnection()
            .invoke(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "gc", null, null);
      }
      String base = "http://127.0.0.1:" + prometheusPort;
      List<String> withData = new ArrayList<>();
      await("every JVM panel of dashboard 4701 shows data (log: " + dir + "/prometheus.log)")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(3))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                withData.clear();
                for (StockDashboards.Panel panel : panels) {
                  if (showsData(base, panel, instance)) {
                    withData.add(panel.title());
                  }
                }
                assertThat(withData)
                    .containsAll(jvmPanels.stream().map(StockDashboards.Panel::title).toList());
              });
      System.out.printf(
          "StockDashboardsIT: Grafana 4701 \"JVM (Micrometer)\": %d of %d panels show data (%d of"
              + " %d panels on JVM metrics; the rest read the application's own HTTP, Tomcat/Jetty,"
              + " Logback and micrometer-jvm-extras metrics); with data: %s%n",
          withData.size(), panels.size(), jvmPanels.size(), jvmPanels.size(), withData);
      datadogMetricsArrive(agent);
    } finally {
      if (prometheus != null) {
        prometheus.destroy();
        if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly();
        }
      }
    }
  }

  /**
   * Datadog's JVM dashboard and monitors: every metric the fixture lists (less those it says are
   * not sent) reaches a DogStatsD agent, here a UDP socket reading the daemon's datagrams.
   */
  private void datadogMetricsArrive(DatagramSocket agent) throws Exception {
    JsonNode fixture =
        ObservabilityFiles.read(
            Jdks.repoRoot()
                .resolve(
                    "daemon/src/test/resources/stock-dashboards/datadog-jvm-runtime-metrics.yml"));
    Set<String> listed = new TreeSet<>();
    fixture.path("metrics").forEach(m -> listed.add(m.asText()));
    Set<String> expected = new TreeSet<>(listed);
    fixture.path("not_sent").fieldNames().forEachRemaining(expected::remove);
    Set<String> received = new TreeSet<>();
    agent.setSoTimeout(2000);
    byte[] buffer = new byte[65536];
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!received.containsAll(expected) && System.nanoTime() < deadline) {
      DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
      try {
        agent.receive(packet);
      } catch (java.net.SocketTimeoutException e) {
        continue;
      }
      String text = new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.contains("target:lab")) {
          received.add(line.substring(0, colon));
        }
      }
    }
    Set<String> arrived = new TreeSet<>(listed);
    arrived.retainAll(received);
    System.out.printf(
        "StockDashboardsIT: Datadog JVM dashboard/monitor metrics: %d of %d arrive over DogStatsD"
            + " (not sent: %s)%n",
        arrived.size(), listed.size(), fixture.path("not_sent").toString());
    assertThat(received).containsAll(expected);
  }

  /** Grafana's variables as a user would pick them: this application, this daemon, all pools. */
  private boolean showsData(String base, StockDashboards.Panel panel, String instance)
      throws Exception {
    for (String query : panel.queries()) {
      String expr =
          query
              .replace("$application", "lab")
              .replace("$instance", instance)
              .replaceAll("\\$jvm_[a-z_]+", ".*");
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          base
                              + "/api/v1/query?query="
                              + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode result =
          ObservabilityFiles.JSON.readTree(response.body()).path("data").path("result");
      if (result.isArray() && !result.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private SentinelDaemon startDaemon(String jmx, int dogStatsdPort) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("sentinel.yaml"),
            """
            http:
              listen: 127.0.0.1:0
            detection:
              enabled: false
            datadog:
              enabled: true
              address: udp://127.0.0.1:%d
              step: 1s
              alerts: false
              agentNames: true
            targets:
              - name: lab
                jmx: %s
                pollInterval: 1s
                tags:
                  application: lab
            """
                .formatted(dogStatsdPort, jmx));
    return SentinelDaemon.start(new ConfigLoader().load(Optional.of(file), CliOverrides.NONE));
  }
}
