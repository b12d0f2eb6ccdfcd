package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonLogsOnFailure;
import io.jvmsentinel.daemon.testing.ForkedDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon killed (SIGKILL) while ThreadStorm fires, twice: a daemon restarted during the storm
 * continues the alert without paging again, and one restarted after the storm ended while no daemon
 * ran sends the resolve, under the same dedup key. The alert state file carries it across.
 */
@ExtendWith(DaemonLogsOnFailure.class)
class AlertRestartIT {
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

  @Test
  void aRestartedDaemonNeitherPagesTwiceNorForgetsTheResolve() throws Exception {
    // The storm runs until the test ends it (by replacing the target with a quiet one on the same
    // port), so no step depends on how fast a loaded machine gets there.
    int port = LoopbackPorts.freePort();
    LabSpec storm =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk17())
            .rate(200)
            .jmxPort(port)
            .build();
    LabSpec quiet = LabSpec.builder("idle").javaHome(Jdks.jdk17()).jmxPort(port).build();
    Path stateFile = Files.createDirectories(dir.resolve("state")).resolve("alerts.json");
    LabProcess lab = storm.startReady(Duration.ofSeconds(30));
    try {
      ForkedDaemon first = daemon(lab, stateFile);
      await().atMost(Duration.ofSeconds(40)).until(() -> !received.isEmpty());
      JsonNode firing = received.get(0);
      assertThat(firing.get("status").asText()).isEqualTo("firing");
      assertThat(firing.get("rule").asText()).isEqualTo("ThreadStorm");
      assertThat(Files.readString(stateFile)).contains("\"ThreadStorm\"");
      first.kill();

      // Restarted during the storm: the alert continues, no second page.
      ForkedDaemon second = daemon(lab, stateFile);
      try {
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThat(second.log())
                        .contains(
                            "ALERT ThreadStorm still firing on app after the daemon restart"));
        assertThat(statuses()).as("no second page").containsOnlyOnce("firing");
      } finally {
        second.kill();
      }

      // The storm ends while no daemon runs; the next one sends the resolve.
      lab.kill();
      lab = quiet.startReady(Duration.ofSeconds(30));
      try (ForkedDaemon third = daemon(lab, stateFile)) {
        await().atMost(Duration.ofSeconds(60)).until(() -> statuses().contains("resolved"));
        JsonNode resolved = received.get(received.size() - 1);
        assertThat(resolved.get("status").asText()).isEqualTo("resolved");
        assertThat(resolved.get("dedupKey").asText()).isEqualTo(firing.get("dedupKey").asText());
        assertThat(resolved.get("startedAt").asText()).isEqualTo(firing.get("startedAt").asText());
        await()
            .atMost(Duration.ofSeconds(5))
            .untilAsserted(
                () -> assertThat(Files.readString(stateFile)).doesNotContain("ThreadStorm"));
        // Besides the page and the resolve, only updates (its snapshot) that page nobody.
        assertThat(statuses())
            .containsOnlyOnce("firing", "resolved")
            .isSubsetOf("firing", "updated", "resolved");
        assertThat(third.log()).contains("restored 1 firing alert(s)");
      }
    } finally {
      lab.close();
    }
  }

  private List<String> statuses() {
    return received.stream().map(n -> n.get("status").asText()).toList();
  }

  private ForkedDaemon daemon(LabProcess lab, Path stateFile) throws Exception {
    int port = LoopbackPorts.freePort();
    String yaml =
        Daemons.connectionYaml().replace("127.0.0.1:0", "127.0.0.1:" + port)
            + """
            alerts:
              stateFile: %s
              restoreGrace: 5s
              sinks:
                webhook:
                  url: %s
            """
                .formatted(stateFile, receiver.url())
            + Daemons.target("app", lab.jmxHostPort(), "1s");
    return ForkedDaemon.start(dir, yaml, port);
  }
}
