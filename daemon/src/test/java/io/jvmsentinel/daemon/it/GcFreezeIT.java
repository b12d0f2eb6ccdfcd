package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.target.RmiTimeouts;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A GC freeze that times out the daemon's polls: 18 s of back-to-back full collections of about a
 * second each ({@code gc-freeze}). The daemon loses the connection in the first one and reconnects
 * after the last; no collection of the freeze is ever notified. Before, no alert at all (measured
 * on JDK 17: 17 collections, 20 s, no pause seen); now GcOverhead pages when the target answers
 * again, from the collectors' totals, and says that part of its share was read that way.
 *
 * <p>The 500 ms call timeout is the poll watchdog's, per daemon; the RMI timeouts are process-wide
 * and the first daemon of a JVM sets them, so this test sets the suite's shared ones first. Runs in
 * the failsafe execution {@code alone}: its target takes a core for the freeze.
 */
class GcFreezeIT {
  @BeforeAll
  static void sharedRmiTimeouts() {
    RmiTimeouts.install(Duration.ofSeconds(2), Duration.ofSeconds(2));
  }

  private static final String CONFIG =
      """
      http:
        listen: 127.0.0.1:0
      connection:
        connectTimeout: 2s
        callTimeout: 500ms
        reconnectInitialDelay: 300ms
        reconnectMaxDelay: 1s
      detection:
        snapshots:
          directory: ""
      """;

  @TempDir Path dir;

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {11, 25})
  void gcOverheadPagesAFreezeThatTimedOutThePollsWhenTheTargetAnswersAgain(int jdk)
      throws Exception {
    try (LabProcess lab =
            LabScenarios.builder("gc-freeze", Jdks.jdk(jdk), jdk)
                .args("--pause", "25s", "--phase", "18s")
                .build()
                .startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.startWith(
                dir, CONFIG + Daemons.target("lab", lab.jmxHostPort(), "2s"), Map.of())) {
      LabEvent freeze = lab.awaitOnset("freeze", Duration.ofSeconds(90));
      LabEvent thaw = lab.awaitOnset("thaw", Duration.ofSeconds(60));
      Instant thawAt = Instant.ofEpochMilli(thaw.atEpochMillis());

      ActiveAlert fired =
          await()
              .atMost(Duration.ofSeconds(30))
              .pollInterval(Duration.ofMillis(250))
              .until(() -> firing(daemon), Optional::isPresent)
              .orElseThrow();
      System.out.printf(
          "JDK %d: %s collections in the freeze; GcOverhead %d ms after the thaw: %s %s%n",
          jdk,
          thaw.attributes().get("collections"),
          Duration.between(thawAt, fired.since()).toMillis(),
          fired.finding().summary(),
          fired.finding().evidence());
      assertThat(fired.since()).isAfter(Instant.ofEpochMilli(freeze.atEpochMillis()));
      assertThat(Duration.between(thawAt, fired.since())).isLessThan(Duration.ofSeconds(15));
      assertThat(fired.finding().evidence().get("unnotifiedPauseSeconds"))
          .as("the freeze was read from the collectors' totals: %s", fired.finding().evidence())
          .isInstanceOfSatisfying(
              Number.class, seconds -> assertThat(seconds.doubleValue()).isGreaterThan(5));

      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> firing(daemon).isEmpty());
    }
  }

  private static Optional<ActiveAlert> firing(SentinelDaemon daemon) {
    return daemon.detection().active().stream()
        .filter(a -> a.ruleId().equals("GcOverhead") && a.state() == ActiveAlert.State.FIRING)
        .findFirst();
  }
}
