package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Precision live: the healthy service on JDK 11, 17, 21 and 25 raises nothing with the default
 * rules. The replays judge healthy JDK 11 and 17 recordings for 6 minutes, but they carry no thread
 * states or contended locks (LockContention cannot speak there) and there is none of JDK 21 or 25.
 * A class of its own (it was ScenarioSuiteIT's, issue 27): three minutes of waiting that an IT fork
 * runs beside the scenario suite instead of after it.
 */
class HealthyTargetsIT {
  @TempDir Path dir;

  /** The healthy service on every JDK of the matrix, JDK 11 (chunk feed) included: no alert. */
  @Test
  void aHealthyServiceOnEveryJdkRaisesNoAlertInThreeMinutes() throws Exception {
    List<LabProcess> labs = new ArrayList<>();
    try {
      StringBuilder targets = new StringBuilder("targets:\n");
      for (int jdk : new int[] {11, 17, 21, 25}) {
        LabProcess lab =
            LabScenarios.builder("healthy", Jdks.jdk(jdk), jdk)
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
        System.out.printf(
            "healthy on JDK 11/17/21/25: 0 alerts in 3 minutes (%d checks)%n", checks);
      }
    } finally {
      labs.forEach(LabProcess::close);
    }
  }
}
