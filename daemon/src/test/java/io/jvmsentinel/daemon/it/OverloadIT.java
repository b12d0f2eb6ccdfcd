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
import io.jvmsentinel.daemon.testing.JmxClient;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event storm far above the daemon's capacity: the lab at its highest thread start rate (about
 * 4,000 starts/s here alone, so about 8,000 ThreadStart and ThreadEnd events/s; 990/s beside the
 * other IT fork in CI) against a daemon made to process at most about 500 events/s in full ({@code
 * jfr.simulatedEventCost: 2ms}). The daemon must shed and count, keep its memory bounded, keep the
 * start rate exact and the storm detected, and catch up once the storm is over. (The storm pause is
 * off: it would spare the daemon the overload this test is about; {@code StormPauseIT} covers it.)
 */
class OverloadIT {
  private static final String DISPATCH = "io.jvmsentinel.lab.RequestDispatcher.dispatch";
  private static final Map<String, String> LAB = Map.of("target", "lab");
  private static final Map<String, String> STARTS_DROPPED =
      Map.of("target", "lab", "event", "jdk.ThreadStart", "reason", "lag");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double MAX_LAG_SECONDS = 4;

  @TempDir Path dir;

  @Test
  void aStormFarAboveCapacityIsShedCountedDetectedAndRecoveredFrom() throws Exception {
    LabSpec spec =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk17())
            .rate(10_000)
            .delay(Duration.ofSeconds(10))
            .duration(Duration.ofSeconds(40))
            .args("--linger", "120s")
            .build();
    String yaml =
        """
        jfr:
          maxLag: 4s
          simulatedEventCost: 2ms
          stormPauseAboveRate: 0
        """
            + "\n";
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        JmxClient jmx = JmxClient.connect(lab);
        SentinelDaemon daemon =
            Daemons.start(dir, yaml + Daemons.target("lab", lab.jmxHostPort(), "2s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Daemons.awaitJfrStreaming(http, "lab");
      var handler = daemon.targets().get(0).jfr().threadStarts();
      long jmxBefore = jmx.startedThreads();
      long jfrBefore = handler.totalStarts();

      long onset = lab.awaitOnset("storm", Duration.ofSeconds(20)).atEpochMillis();
      long heapPeak = 0;
      double lagPeak = 0;
      long firedAt = -1;
      boolean targetUpThroughout = true;
      // Sample once a second through the 30 s storm (a measurement loop, not a wait).
      while (lab.events().stream().noneMatch(e -> e.phase().equals(Optional.of("linger")))) {
        heapPeak = Math.max(heapPeak, usedHeapAfterGc());
        PrometheusText scrape = http.scrape();
        targetUpThroughout &= scrape.value("jvm_sentinel_target_up", LAB).orElse(0.0) == 1.0;
        lagPeak =
            Math.max(
                lagPeak, scrape.value("jvm_sentinel_jfr_lag_current_seconds", LAB).orElse(0.0));
        if (firedAt < 0 && threadStormFiring(http)) {
          firedAt = System.currentTimeMillis();
        }
        Thread.sleep(1000);
      }
      assertThat(lab.isAlive()).as("target alive after the storm").isTrue();
      long jmxDelta = jmx.startedThreads() - jmxBefore;

      // Recovery: the backlog drains and the daemon is back under its lag bound.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () ->
                  assertThat(http.scrape().value("jvm_sentinel_jfr_lag_current_seconds", LAB).get())
                      .isLessThan(MAX_LAG_SECONDS));
      // Shedding keeps the start count exact: every start counted, stack or not.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () ->
                  assertThat((double) handler.totalStarts() - jfrBefore)
                      .isCloseTo((double) jmxDelta, Percentage.withPercentage(1)));
      PrometheusText after = http.scrape();
      double dropped = after.value("jvm_sentinel_jfr_events_dropped_total", STARTS_DROPPED).get();
      double endsDropped =
          after
              .value(
                  "jvm_sentinel_jfr_events_dropped_total",
                  Map.of("target", "lab", "event", "jdk.ThreadEnd", "reason", "lag"))
              .orElse(0.0);
      JsonNode report = JSON.readTree(http.get("/api/v1/targets/lab/thread-starts?top=3").body());
      System.out.printf(
          "overload: target started %d threads (%.0f/s); daemon counted %d, dropped %.0f"
              + " ThreadStart and %.0f ThreadEnd, attributed %d; lag peaked at %.1f s; heap after GC"
              + " peaked at %d MB; ThreadStorm firing seen %d ms after onset%n",
          jmxDelta,
          jmxDelta / 30.0,
          handler.totalStarts() - jfrBefore,
          dropped,
          endsDropped,
          report.get("sampledStarts").asLong(),
          lagPeak,
          heapPeak / (1024 * 1024),
          firedAt - onset);

      // 500 starts/s at least (1,000 events/s, twice the simulated capacity): the lab reaches
      // about 4,000/s alone on this 2-core machine, 990/s to 1,500/s beside a second IT fork
      // (29,755 starts in a CI run of 2026-11-27, when this asked for 1,000/s against 1 ms).
      assertThat(jmxDelta).as("the lab really stormed").isGreaterThan(15_000);
      assertThat(dropped).as("ThreadStart events shed and counted").isPositive();
      assertThat(heapPeak).as("heap after GC during the storm").isLessThan(256L * 1024 * 1024);
      assertThat(targetUpThroughout).as("target up at every sample").isTrue();
      assertThat(firedAt).as("ThreadStorm fired during the storm").isPositive();
      assertThat(firedAt - onset).as("ms from onset to ThreadStorm firing").isLessThan(10_000);
      assertThat(report.get("sites").get(0).get("site").asText()).isEqualTo(DISPATCH);
      assertThat(report.get("sampledStarts").asLong())
          .isLessThan(report.get("totalStarts").asLong());
    }
  }

  private static boolean threadStormFiring(DaemonHttp http) throws Exception {
    for (JsonNode alert : JSON.readTree(http.get("/api/v1/alerts").body()).get("alerts")) {
      if (alert.get("alert").asText().equals("ThreadStorm")
          && alert.get("state").asText().equals("firing")) {
        return true;
      }
    }
    return false;
  }

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
