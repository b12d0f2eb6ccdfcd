package io.jvmsentinel.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The lab's command line, parsed in-process (no JVM fork). */
class LabOptionsTest {

  @Test
  void parsesScenarioAndOptions() {
    LabOptions options =
        LabOptions.parse(
            "thread-per-request", "--rate", "500", "--duration", "2m", "--delay", "250ms");

    assertThat(options.scenario()).isEqualTo("thread-per-request");
    assertThat(options.rate(200)).isEqualTo(500);
    assertThat(options.threads(200)).isEqualTo(200);
    assertThat(options.duration()).hasValue(Duration.ofMinutes(2));
    assertThat(options.delay()).isEqualTo(Duration.ofMillis(250));
    assertThat(options.warmup(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
    assertThat(options.classes(960)).isEqualTo(960);
    assertThat(LabOptions.parse("codebase-churn", "--classes", "3840").classes(960))
        .isEqualTo(3840);
  }

  @Test
  void parsesDurations() {
    assertThat(LabOptions.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(LabOptions.parseDuration("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(LabOptions.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(LabOptions.parseDuration("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
    assertThat(LabOptions.parseDuration("7")).isEqualTo(Duration.ofSeconds(7));
    assertThatThrownBy(() -> LabOptions.parseDuration("soon"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsBadCommandLines() {
    assertThatThrownBy(LabOptions::parse).hasMessageContaining("missing scenario");
    assertThatThrownBy(() -> LabOptions.parse("idle", "--rate"))
        .hasMessageContaining("missing value for --rate");
    assertThatThrownBy(() -> LabOptions.parse("idle", "--rate", "0"))
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> LabOptions.parse("idle", "--colour", "red"))
        .hasMessageContaining("unknown option --colour");
  }

  @Test
  void registryListsEveryScenarioWithADescription() {
    assertThat(Scenarios.names())
        .containsExactly(
            "idle",
            "healthy",
            "thread-per-request",
            "thread-burst",
            "tls-listener-storm",
            "tls-full-handshakes",
            "tls-resumed",
            "tls-reconnect-wave",
            "codecache-churn",
            "codecache-full",
            "deopt-storm",
            "spread-deopt-storm",
            "callsite-storm",
            "gc-pressure",
            "gc-freeze",
            "mixed",
            "storm-after-storm",
            "feature-after-warmup",
            "churn-from-boot",
            "codebase-churn",
            "classloader-churn",
            "pool-start",
            "gc-at-startup",
            "batch-thread-bursts",
            "batch-gc-burst",
            "virtual-threads",
            "plugin-reload",
            "lock-refresh-burst",
            "new-message-type",
            "periodic-full-gc",
            "cpu-saturation",
            "jmx-outage",
            "hostile-names",
            "hostile-text",
            "hostile-frames",
            "hostile-events",
            "hostile-reply-class",
            "hostile-reply-array",
            "hostile-reply-hang",
            "lock-contention",
            "incidents-at-once",
            "bench",
            "storm-then-bursts",
            "tls-storm-then-wave",
            "storm-during-contention",
            "gc-during-churn",
            "deopt-then-new-code",
            "storm-flaps-then-recurs");
    for (String name : Scenarios.names()) {
      assertThat(Scenarios.create(LabOptions.defaults(name)))
          .hasValueSatisfying(scenario -> assertThat(scenario.name()).isEqualTo(name));
      assertThat(Scenarios.usage()).contains(name);
    }
    assertThat(Scenarios.create(LabOptions.defaults("nope"))).isEmpty();
  }
}
