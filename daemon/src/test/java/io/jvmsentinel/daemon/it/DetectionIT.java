package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.WebhookReceiver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Detection against real targets: a storm is caught fast and named; a healthy target is left alone.
 */
class DetectionIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private WebhookReceiver receiver;
  private List<JsonNode> received;

  @BeforeEach
  void webhookReceiver() throws Exception {
    receiver = WebhookReceiver.start();
    received = receiver.received();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  private String config(String jmx, String pollInterval) {
    return Daemons.webhookAndSnapshots(receiver.url(), dir.resolve("evidence").toString())
        + Daemons.target("lab", jmx, pollInterval);
  }

  /**
   * JDK 11 has no remote streaming: the daemon reads its recording in chunks every 2 s, so events
   * reach the rules a read later; the bound there is 20 s (issue 23), with the users' default JMX
   * poll interval (10 s), which the chunks do not depend on. JDK 25 stands for the streaming JDKs:
   * the same storm on JDK 17 fires, is named and resolves in the replays of {@code mixed-jdk17} and
   * {@code tls-30rps-jdk17} (ScenarioReplayTest), and in the demo.
   */
  @ParameterizedTest(name = "target JDK {0}")
  @ValueSource(ints = {11, 25})
  void aTlsListenerThreadStormIsCaughtQuicklyNamedAndResolved(int jdk) throws Exception {
    LabSpec spec =
        LabSpec.builder("tls-listener-storm")
            .javaHome(Jdks.jdk(jdk))
            .rate(150)
            .delay(Duration.ofSeconds(10))
            .duration(Duration.ofSeconds(35))
            .args("--linger", "120s")
            .build();
    boolean chunks = jdk < 16;
    long bound = chunks ? 20_000 : 10_000;
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(dir, config(lab.jmxHostPort(), chunks ? "10s" : "2s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      LabEvent storm = lab.awaitOnset("storm", Duration.ofSeconds(30));
      long onset = storm.atEpochMillis();

      await().atMost(Duration.ofMillis(bound + 10_000)).until(() -> !received.isEmpty());
      JsonNode firing = received.get(0);
      assertThat(firing.get("status").asText()).isEqualTo("firing");
      assertThat(firing.get("rule").asText()).isEqualTo("ThreadStorm");
      long latency = Instant.parse(firing.get("startedAt").asText()).toEpochMilli() - onset;
      System.out.printf("JDK %d: ThreadStorm fired %d ms after the storm's onset%n", jdk, latency);
      assertThat(latency).as("detection latency, ms").isLessThanOrEqualTo(bound);
      assertThat(firing.get("summary").asText())
          .contains("sun.security.ssl.TransportContext.finishHandshake")
          .contains("JDK-8246039");
      assertThat(firing.get("evidence").get("knownCause").asText()).isEqualTo("JDK-8246039");
      assertThat(
              firing
                  .get("evidence")
                  .get("topCreatorSites")
                  .get(0)
                  .get("threadNames")
                  .get(0)
                  .asText())
          .startsWith("HandshakeCompletedNotify-Thread");

      JsonNode alerts = JSON.readTree(http.get("/api/v1/alerts").body()).get("alerts");
      assertThat(alerts)
          .anySatisfy(
              a -> {
                assertThat(a.get("alert").asText()).isEqualTo("ThreadStorm");
                assertThat(a.get("state").asText()).isEqualTo("firing");
              });
      assertThat(
              http.scrape()
                  .value(
                      "jvm_sentinel_alert_active", Map.of("target", "lab", "alert", "ThreadStorm")))
          .contains(1.0);
      // Handshakes per peer: the clients' side names the lab's HTTPS server.
      String server = "127.0.0.1:" + storm.attribute("port").orElseThrow();
      assertThat(http.scrape().sum("jvm_tls_handshakes_total", Map.of("peer", server)))
          .as("handshakes with " + server)
          .isGreaterThan(20);
      JsonNode targets = JSON.readTree(http.get("/api/v1/targets").body()).get("targets");
      assertThat(targets.get(0).get("jfr").asText())
          .isEqualTo(
              chunks
                  ? "reading the recording in chunks every 2s (Java 11 has no remote streaming)"
                  : "streaming");
      assertThat(targets.get(0).get("jfrFeed").asText()).isEqualTo(chunks ? "chunks" : "stream");
      assertThat(targets.get(0).get("jfrLagSeconds").asDouble())
          .as("events reach the rules a read (2 s) later from chunks, about 1 s from a stream")
          .isBetween(0.0, chunks ? 12.0 : 10.0);
      // The page says its snapshot is being written; an update names it once checked whole.
      assertThat(firing.get("snapshotUnavailable").asText()).startsWith("being written");
      JsonNode withSnapshot =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> EvidenceSnapshotsIT.snapshotNamed(received), n -> n != null);
      assertThat(withSnapshot.get("status").asText()).isEqualTo("updated");
      assertThat(withSnapshot.get("dedupKey").asText()).isEqualTo(firing.get("dedupKey").asText());
      assertThat(EvidenceSnapshotsIT.eventTypes(Path.of(withSnapshot.get("snapshot").asText())))
          .containsKey("jdk.ThreadStart");

      // The storm ends at 35 s: the alert resolves, and says so.
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () -> received.stream().anyMatch(n -> n.get("status").asText().equals("resolved")));
      JsonNode resolved = received.get(received.size() - 1);
      assertThat(resolved.get("status").asText()).isEqualTo("resolved");
      assertThat(resolved.get("dedupKey").asText()).isEqualTo(firing.get("dedupKey").asText());
      assertThat(
              http.scrape()
                  .value(
                      "jvm_sentinel_alert_active", Map.of("target", "lab", "alert", "ThreadStorm")))
          .contains(0.0);
      assertThat(received).extracting(n -> n.get("status").asText()).containsOnlyOnce("firing");
    }
  }

  /**
   * Issue 23: a JDK 11 service starting a thread per task from its own code, watched with the
   * users' defaults (no poll interval set: 10 s). The creator comes from the chunk feed.
   */
  @Test
  void aThreadPerTaskStormOnJdk11PagesWithinTwentySecondsNamingTheApplicationCode()
      throws Exception {
    LabSpec spec =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk(11))
            .rate(150)
            .delay(Duration.ofSeconds(10))
            .build();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                Daemons.webhookAndSnapshots(receiver.url(), "")
                    + "targets:\n  - name: lab\n    jmx: "
                    + lab.jmxHostPort()
                    + "\n")) {
      long onset = lab.awaitOnset("storm", Duration.ofSeconds(30)).atEpochMillis();

      await().atMost(Duration.ofSeconds(30)).until(() -> !received.isEmpty());
      JsonNode firing = received.get(0);
      assertThat(firing.get("rule").asText()).isEqualTo("ThreadStorm");
      long latency = Instant.parse(firing.get("startedAt").asText()).toEpochMilli() - onset;
      System.out.printf("JDK 11 thread per task: ThreadStorm fired %d ms after onset%n", latency);
      assertThat(latency).as("detection latency, ms").isLessThanOrEqualTo(20_000);
      assertThat(firing.get("summary").asText())
          .contains("from io.jvmsentinel.lab.RequestDispatcher.dispatch");
      assertThat(firing.get("evidence").get("source").asText()).isEqualTo("JFR jdk.ThreadStart");
      assertThat(daemon.targets().get(0).stream().state())
          .startsWith("reading the recording in chunks");
    }
  }
}
