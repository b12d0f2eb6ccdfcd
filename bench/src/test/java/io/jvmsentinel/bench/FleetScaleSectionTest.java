package io.jvmsentinel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.lab.LabSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet section's daemon watches exactly this run's labs, and reads the scrape per target. */
class FleetScaleSectionTest {
  private static final String LABEL = "fleet-bench-42-1700000000";

  @Test
  void theDaemonsFilterMatchesOnlyLabsWithThisRunsLabel(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sentinel.yaml");
    Files.writeString(file, "http:\n  listen: 127.0.0.1:0\n" + FleetScaleSection.yaml(LABEL));
    LocalDiscoveryConfig discovery = new ConfigLoader().load(file).localDiscovery().orElseThrow();
    Optional<String> user = Optional.of("bench");

    assertThat(discovery.watches(LabSpec.MAIN_CLASS, "idle --label " + LABEL, user)).isTrue();
    assertThat(discovery.watches(LabSpec.MAIN_CLASS, "idle --label " + LABEL + "0", user))
        .as("another run whose label starts with this one")
        .isFalse();
    assertThat(discovery.watches(LabSpec.MAIN_CLASS, "idle --label fleet-other", user)).isFalse();
    assertThat(discovery.watches("org.example.Main", "--label " + LABEL, user))
        .as("not a lab")
        .isFalse();
  }

  @Test
  void readsOneMetricPerTargetSummingItsSeriesAndSkippingNaN() {
    String body =
        """
        # HELP jvm_sentinel_target_up up
        jvm_sentinel_target_up{main_class="io.jvmsentinel.lab.LabMain",pid="1",target="LabMain-1",} 1.0
        jvm_sentinel_target_up{main_class="io.jvmsentinel.lab.LabMain",pid="2",target="LabMain-2",} 0.0
        jvm_sentinel_target_up_other{target="LabMain-1",} 7.0
        jvm_sentinel_jfr_events_total{event="a",target="LabMain-1",} 2.0
        jvm_sentinel_jfr_events_total{event="b",target="LabMain-1",} 3.0
        jvm_sentinel_jfr_lag_current_seconds{target="LabMain-2",} NaN
        """;

    assertThat(MetricsText.byTarget(body, "jvm_sentinel_target_up"))
        .containsExactly(
            java.util.Map.entry("LabMain-1", 1.0), java.util.Map.entry("LabMain-2", 0.0));
    assertThat(MetricsText.byTarget(body, "jvm_sentinel_jfr_events_total"))
        .containsExactly(java.util.Map.entry("LabMain-1", 5.0));
    assertThat(MetricsText.byTarget(body, "jvm_sentinel_jfr_lag_current_seconds")).isEmpty();
  }
}
