package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TLS handshakes of real targets, and the JDK-8246039 thread per handshake, as the daemon sees
 * them.
 */
class TlsIT {
  private static final String FINISH_HANDSHAKE =
      "sun.security.ssl.TransportContext.finishHandshake";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @ParameterizedTest(name = "target JDK {0}")
  @ValueSource(ints = {17, 25})
  void theHandshakeListenerThreadStormIsAttributedToFinishHandshake(int jdk) throws Exception {
    LabSpec spec = LabSpec.builder("tls-listener-storm").javaHome(Jdks.jdk(jdk)).rate(50).build();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(dir, Daemons.target("lab", lab.jmxHostPort(), "2s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                JsonNode top =
                    JSON.readTree(http.get("/api/v1/targets/lab/thread-starts").body())
                        .get("sites")
                        .get(0);
                assertThat(top.get("site").asText()).isEqualTo(FINISH_HANDSHAKE);
                assertThat(top.get("count").asLong()).isGreaterThan(50);
                assertThat(top.get("threadNames").get(0).get("name").asText())
                    .isEqualTo("HandshakeCompletedNotify-Thread");
              });
      PrometheusText scrape = http.scrape();
      assertThat(
              scrape.sum(
                  "jvm_tls_handshakes_total", Map.of("target", "lab", "protocol", "TLSv1.3")))
          .isGreaterThan(50);
      assertThat(
              scrape.value(
                  "jvm_threads_started_by_site_threads_total",
                  Map.of("target", "lab", "site", FINISH_HANDSHAKE)))
          .hasValueSatisfying(v -> assertThat(v).isGreaterThan(50));
    }
  }

  @ParameterizedTest(name = "target JDK {0}")
  @ValueSource(ints = {17, 25})
  void handshakesThatAreNeverResumedShowAsFullHandshakesToTheirPeer(int jdk) throws Exception {
    LabSpec spec = LabSpec.builder("tls-full-handshakes").javaHome(Jdks.jdk(jdk)).rate(20).build();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(dir, Daemons.target("lab", lab.jmxHostPort(), "2s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      String port =
          lab.awaitOnset("full-handshakes", Duration.ofSeconds(10)).attribute("port").orElseThrow();
      // The lab's client connects to "localhost", and JFR reports the host name it was given.
      String peer = "localhost:" + port;
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                double handshakes =
                    scrape.sum("jvm_tls_handshakes_total", Map.of("target", "lab", "peer", peer));
                double full =
                    scrape.sum(
                        "jvm_tls_handshakes_full_total", Map.of("target", "lab", "peer", peer));
                assertThat(handshakes).isGreaterThan(20);
                assertThat(full / handshakes)
                    .as("full-handshake share to " + peer)
                    .isGreaterThan(0.9);
              });
      JsonNode report = JSON.readTree(http.get("/api/v1/targets/lab/tls").body());
      assertThat(report.get("handshakes").get("fullHandshakes").asLong()).isPositive();
      assertThat(report.get("certificates").toString()).contains("localhost");
    }
  }
}
