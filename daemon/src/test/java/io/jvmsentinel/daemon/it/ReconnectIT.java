package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fault injection: the target dies, comes back on the same port, or hangs. */
class ReconnectIT {
  private static final Duration POLL = Duration.ofSeconds(2);
  private static final Map<String, String> TARGET = Map.of("target", "app");

  @TempDir Path dir;

  @Test
  void aKilledTargetIsMarkedDownAndPickedUpAgainWhenItRestartsOnTheSamePort() throws Exception {
    LabSpec spec = LabSpec.builder("thread-per-request").javaHome(Jdks.jdk17()).rate(20).build();
    LabProcess lab = spec.startReady(Duration.ofSeconds(30));
    try (SentinelDaemon daemon =
        Daemons.start(dir, Daemons.target("app", lab.jmxHostPort(), "2s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      awaitUp(http, Duration.ofSeconds(20));
      assertThat(http.get("/ready").statusCode()).isEqualTo(200);
      double startedBeforeKill =
          http.scrape().value("jvm_threads_started_threads_total", TARGET).orElseThrow();

      lab.kill();
      long killedAt = System.nanoTime();
      await()
          .atMost(POLL)
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(
              () ->
                  assertThat(http.scrape().value("jvm_sentinel_target_up", TARGET)).contains(0.0));
      System.out.printf("target_up went to 0 %d ms after the kill%n", millisSince(killedAt));

      HttpResponse<String> notReady = http.get("/ready");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("\"NOT_READY\"").contains("\"target\":\"app\"");
      PrometheusText whileDown = http.scrape();
      assertThat(whileDown.value("jvm_threads_live_threads", TARGET)).contains(Double.NaN);
      assertThat(whileDown.value("jvm_threads_started_threads_total", TARGET))
          .hasValueSatisfying(v -> assertThat(v).isGreaterThanOrEqualTo(startedBeforeKill));

      lab = lab.restart(Duration.ofSeconds(30));
      long reachableAt = System.nanoTime();
      awaitUp(http, Duration.ofSeconds(5));
      System.out.printf(
          "target_up back to 1 %d ms after the target was reachable%n", millisSince(reachableAt));
      assertThat(http.get("/ready").statusCode()).isEqualTo(200);

      // The same series continue: same names and labels, fresh values from the new process.
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                PrometheusText after = http.scrape();
                assertThat(after.value("jvm_threads_live_threads", TARGET))
                    .hasValueSatisfying(v -> assertThat(v).isPositive());
                assertThat(after.series("jvm_memory_used_bytes", TARGET))
                    .allSatisfy(s -> assertThat(s.value()).isNotNaN());
              });
      assertThat(
              http.scrape()
                  .value(
                      "jvm_sentinel_connection_failures_total",
                      Map.of("target", "app", "reason", "lost")))
          .hasValueSatisfying(v -> assertThat(v).isGreaterThanOrEqualTo(1));
    } finally {
      lab.close();
    }
  }

  @Test
  void aHungTargetNeverSlowsMetricsAndRecoversWhenResumed() throws Exception {
    LabSpec spec = LabSpec.builder("healthy").javaHome(Jdks.jdk17()).build();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(dir, Daemons.target("app", lab.jmxHostPort(), "1s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      awaitUp(http, Duration.ofSeconds(20));

      lab.suspend();
      try {
        long stoppedAt = System.nanoTime();
        // /metrics keeps answering fast while polls of the target block and time out.
        long slowest = 0;
        while (millisSince(stoppedAt) < 8_000) {
          long start = System.nanoTime();
          PrometheusText scrape = http.scrape();
          slowest = Math.max(slowest, millisSince(start));
          if (scrape.value("jvm_sentinel_target_up", TARGET).orElseThrow() == 0.0) {
            break;
          }
          Thread.sleep(100);
        }
        assertThat(slowest)
            .as("slowest /metrics answer while the target hangs, ms")
            .isLessThan(1000);
        assertThat(http.scrape().value("jvm_sentinel_target_up", TARGET))
            .as("up after call timeout (2 s) plus one poll interval (1 s)")
            .contains(0.0);
        System.out.printf(
            "target_up went to 0 %d ms after SIGSTOP; slowest scrape %d ms%n",
            millisSince(stoppedAt), slowest);
        assertThat(http.get("/ready").statusCode()).isEqualTo(503);
      } finally {
        lab.resume();
      }
      awaitUp(http, Duration.ofSeconds(15));
    }
  }

  private static void awaitUp(DaemonHttp http, Duration timeout) {
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () -> assertThat(http.scrape().value("jvm_sentinel_target_up", TARGET)).contains(1.0));
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
