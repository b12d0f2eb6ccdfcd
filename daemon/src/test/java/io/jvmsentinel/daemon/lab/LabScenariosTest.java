package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.lab.LabOptions;
import io.jvmsentinel.lab.Scenarios;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The scenario registry and the flags the launcher adds per scenario (no JVM fork). */
class LabScenariosTest {

  @Test
  void registersTheJitCodeCacheAndGcScenarios() {
    assertThat(Scenarios.names())
        .contains("codecache-churn", "codecache-full", "deopt-storm", "gc-pressure", "mixed");
    assertThat(Scenarios.usage()).contains("--phase D", "codecache-full");
  }

  @Test
  void flagsPerScenario() {
    for (int feature : new int[] {11, 17, 21, 25}) {
      assertThat(LabScenarios.jvmFlags("codecache-churn", feature))
          .containsExactly("-XX:ReservedCodeCacheSize=4m");
      assertThat(LabScenarios.jvmFlags("codecache-full", feature))
          .containsExactly(
              "-XX:+SegmentedCodeCache",
              "-XX:ReservedCodeCacheSize=8m",
              "-XX:-UseCodeCacheFlushing");
      assertThat(LabScenarios.jvmFlags("gc-pressure", feature)).containsExactly("-Xmx64m");
      assertThat(LabScenarios.jvmFlags("churn-from-boot", feature))
          .containsExactly("-XX:ReservedCodeCacheSize=8m");
      assertThat(LabScenarios.jvmFlags("gc-at-startup", feature)).containsExactly("-Xmx64m");
      assertThat(LabScenarios.jvmFlags("batch-gc-burst", feature)).containsExactly("-Xmx128m");
      assertThat(LabScenarios.jvmFlags("batch-thread-bursts", feature)).isEmpty();
      assertThat(LabScenarios.jvmFlags("feature-after-warmup", feature)).isEmpty();
      assertThat(LabScenarios.jvmFlags("deopt-storm", feature)).isEmpty();
      assertThat(LabScenarios.jvmFlags("healthy", feature)).isEmpty();
      assertThat(LabScenarios.jvmFlags("gc-during-churn", feature))
          .containsExactly("-XX:ReservedCodeCacheSize=4m", "-Xmx128m");
      assertThat(LabScenarios.jvmFlags("periodic-full-gc", feature))
          .containsExactly("-XX:+UseSerialGC", "-Xms3g", "-Xmx3g");
      assertThat(LabScenarios.jvmFlags("jmx-outage", feature)).containsExactly("-Xmx64m");
      assertThat(LabScenarios.jvmFlags("cpu-saturation", feature)).isEmpty();
    }
    assertThat(LabScenarios.builder("gc-pressure").build().command(0)).contains("-Xmx64m");
  }

  @Test
  void mixedPhaseOptions() {
    LabOptions options = LabOptions.parse("mixed", "--phase", "10s", "--pause", "5s");
    assertThat(options.phase(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(10));
    assertThat(options.pause(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(5));
  }
}
