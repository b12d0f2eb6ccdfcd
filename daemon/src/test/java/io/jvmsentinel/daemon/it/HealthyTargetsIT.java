package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.JmxClient;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.lab.RequestCounterMBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Precision live: the healthy service on JDK 11, 17, 21 and 25 raises nothing with the default
 * rules. On JDK 21 and 25 it also serves 1,000 requests a second each on a new virtual thread
 * ({@code virtual-threads}): a Loom service starts thousands of threads a second and has no thread
 * storm, because a virtual thread is no OS thread (JFR's {@code jdk.ThreadStart} and JMX's started
 * count are of platform threads only; measured on 21.0.8 and 25.0.3), and one request in 50 pins
 * its carrier for 25 ms on JDK 21 (a legacy driver's {@code synchronized} call), which is charted
 * by site and raises nothing. The replays judge healthy JDK 11 and 17 recordings for 6 minutes, but
 * they carry no thread states or contended locks (LockContention cannot speak there) and there is
 * none of JDK 21 or 25. A class of its own (it was ScenarioSuiteIT's, issue 27): three minutes of
 * waiting that an IT fork runs beside the scenario suite instead of after it.
 */
class HealthyTargetsIT {
  private static final int[] JDKS = {11, 17, 21, 25};
  private static final String LEGACY_SITE = "io.jvmsentinel.lab.LegacyConnection.execute";

  @TempDir Path dir;

  /** The healthy service on every JDK of the matrix, JDK 11 (chunk feed) included: no alert. */
  @Test
  void aHealthyServiceOnEveryJdkRaisesNoAlertInThreeMinutes() throws Exception {
    List<LabProcess> labs = new ArrayList<>();
    try {
      StringBuilder targets = new StringBuilder("targets:\n");
      for (int jdk : JDKS) {
        LabProcess lab =
            LabScenarios.builder(
                    servesOnVirtualThreads(jdk) ? "virtual-threads" : "healthy", Jdks.jdk(jdk), jdk)
                .build()
                .startReady(Duration.ofSeconds(60));
        labs.add(lab);
        targets
            .append("  - name: jdk")
            .append(jdk)
            .append("\n    jmx: ")
            .append(lab.jmxHostPort())
            .append("\n    pollInterval: 2s\n");
      }
      try (SentinelDaemon daemon =
          Daemons.start(dir, "detection:\n  snapshots:\n    directory: \"\"\n" + targets)) {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        int checks = 0;
        while (System.nanoTime() < end) {
          assertThat(daemon.detection().active()).as("alerts on healthy targets").isEmpty();
          checks++;
          Thread.sleep(2_000);
        }
        assertThat(daemon.sessions()).allSatisfy(s -> assertThat(s.status().up()).isTrue());
        // Compiler-thread CPU on every JDK: from JFR (JDK 11 through the chunk feed).
        for (String target : List.of("jdk11", "jdk17", "jdk21", "jdk25")) {
          assertThat(
                  daemon
                      .registry()
                      .get("jvm.jit.compiler.cpu.usage")
                      .tags("target", target, "compiler", "c2")
                      .gauge()
                      .value())
              .as("C2 CPU of " + target)
              .isNotNaN();
        }
        PrometheusText scrape = new DaemonHttp(daemon.httpPort()).scrape();
        for (int i = 0; i < JDKS.length; i++) {
          if (!servesOnVirtualThreads(JDKS[i])) {
            continue;
          }
          Map<String, String> target = Map.of("target", "jdk" + JDKS[i]);
          long virtualThreads;
          try (JmxClient jmx = JmxClient.connect(labs.get(i))) {
            virtualThreads = jmx.longAttribute(RequestCounterMBean.OBJECT_NAME, "Completed");
          }
          double jfrStarts = scrape.sum("jvm_threads_started_by_site_threads_total", target);
          double jmxStarts = scrape.sum("jvm_threads_started_threads_total", target);
          System.out.printf(
              "%s: %d virtual threads started; thread starts seen: %.0f by JFR, %.0f by JMX%n",
              target.get("target"), virtualThreads, jfrStarts, jmxStarts);
          // A third of the 180,000 due, for a loaded runner; platform threads are a few dozen.
          assertThat(virtualThreads).as("virtual threads of " + target).isGreaterThan(60_000);
          assertThat(jfrStarts).as("JFR thread starts of " + target).isLessThan(500);
          assertThat(jmxStarts).as("JMX thread starts of " + target).isLessThan(500);
          assertPinnedCarriers(JDKS[i], scrape, target);
        }
        System.out.printf(
            "healthy on JDK 11/17/21/25: 0 alerts in 3 minutes (%d checks)%n", checks);
      }
    } finally {
      labs.forEach(LabProcess::close);
    }
  }

  /**
   * One request in 50 queries a legacy driver that blocks 25 ms inside {@code synchronized}: on JDK
   * 21 each such query pins its carrier, timed under the driver's method; on JDK 25 (JEP 491) the
   * virtual thread unmounts and nothing is pinned.
   */
  private static void assertPinnedCarriers(
      int jdk, PrometheusText scrape, Map<String, String> target) {
    Map<String, String> legacySite = new HashMap<>(target);
    legacySite.put("site", LEGACY_SITE);
    double pins = scrape.sum("jvm_threads_virtual_pinned_seconds_count", legacySite);
    double pinnedSeconds = scrape.sum("jvm_threads_virtual_pinned_seconds_sum", legacySite);
    System.out.printf(
        "%s: %.0f pins at %s, %.1f s pinned%n",
        target.get("target"), pins, LEGACY_SITE, pinnedSeconds);
    if (jdk < 24) {
      // 20 queries a second; the stream may start a minute late on a loaded runner (measured:
      // 1,844 in 3 minutes beside another IT, 20 a second alone). Each pin is one 25 ms query,
      // recorded from 20 ms.
      assertThat(pins).as("pins of " + target).isGreaterThan(200);
      assertThat(pinnedSeconds / pins).as("seconds per pin").isBetween(0.020, 0.100);
    } else {
      assertThat(pins).as("pins of " + target + " (JEP 491)").isZero();
    }
  }

  /** JDK 21 and later run the healthy service with its requests on virtual threads. */
  private static boolean servesOnVirtualThreads(int jdk) {
    return jdk >= 21;
  }
}
