package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The carrier deadlock of virtual threads ({@code carrier-deadlock}): on JDK 21 every carrier is
 * held for good by a virtual thread pinned in {@code synchronized}, which JFR never reports (a pin
 * is recorded when it ends) and the carrier gauge does; on JDK 25 (JEP 491) the same code does not
 * deadlock and no carrier stays pinned.
 */
class VirtualThreadCarriersIT {
  private static final String PINNED = "jvm_threads_virtual_carriers_threads";

  @TempDir Path dir;

  @Test
  void everyCarrierHeldByADeadlockIsSeenPinnedOnJdk21AndNoneOnJdk25() throws Exception {
    try (LabProcess jdk21 = deadlock(21);
        LabProcess jdk25 = deadlock(25);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                "detection:\n  snapshots:\n    directory: \"\"\ntargets:\n"
                    + target("jdk21", jdk21)
                    + target("jdk25", jdk25))) {
      jdk21.awaitOnset("carrier-deadlock", Duration.ofSeconds(60));
      jdk25.awaitOnset("carrier-deadlock-over", Duration.ofSeconds(60));
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Map<String, String> pinned21 = Map.of("target", "jdk21", "state", "pinned");

      // The carriers are the lab's CPUs (the scheduler's default parallelism), all held.
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                double cpus = scrape.sum("system_cpu_count", Map.of("target", "jdk21"));
                assertThat(cpus).isPositive();
                assertThat(scrape.sum(PINNED, pinned21)).isEqualTo(cpus);
                assertThat(scrape.sum(PINNED, Map.of("target", "jdk21", "state", "running")))
                    .isZero();
              });
      // Still held three polls (2 s apart) later, and never reported by JFR.
      Thread.sleep(6_000);
      PrometheusText scrape = http.scrape();
      double cpus = scrape.sum("system_cpu_count", Map.of("target", "jdk21"));
      assertThat(scrape.sum(PINNED, pinned21)).as("carriers still pinned").isEqualTo(cpus);
      assertThat(scrape.sum("jvm_threads_virtual_pinned_seconds_count", Map.of("target", "jdk21")))
          .as("pins JFR recorded")
          .isZero();
      assertThat(scrape.sum(PINNED, Map.of("target", "jdk25", "state", "pinned")))
          .as("JDK 25 carriers pinned")
          .isZero();
      System.out.printf(
          "carrier-deadlock: jdk21 %.0f of %.0f carriers pinned, 0 pins recorded by JFR; jdk25 no"
              + " deadlock; alerts: %s%n",
          scrape.sum(PINNED, pinned21), cpus, daemon.detection().active());
    }
  }

  private static LabProcess deadlock(int jdk) throws IOException {
    return LabScenarios.builder("carrier-deadlock", Jdks.jdk(jdk), jdk)
        .args("--pause", "10s")
        .build()
        .startReady(Duration.ofSeconds(60));
  }

  private static String target(String name, LabProcess lab) {
    return "  - name: " + name + "\n    jmx: " + lab.jmxHostPort() + "\n    pollInterval: 2s\n";
  }
}
