package io.jvmsentinel.daemon.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Shed events are reported at most once a minute, with the counts since the last report. */
class DropLogTest {
  private static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");
  private final DropLog drops = new DropLog(Duration.ofMinutes(1));

  @Test
  void nothingToSayWithoutDrops() {
    assertThat(drops.due(T0)).isEmpty();
  }

  @Test
  void reportsCountsByEventThenWaitsAMinuteThenReportsOnlyTheNewOnes() {
    for (int i = 0; i < 1000; i++) {
      drops.dropped("jdk.ThreadStart");
    }
    drops.dropped("jdk.ThreadEnd");

    assertThat(drops.due(T0)).contains(Map.of("jdk.ThreadEnd", 1L, "jdk.ThreadStart", 1000L));

    drops.dropped("jdk.ThreadStart");
    assertThat(drops.due(T0.plusSeconds(30))).isEmpty();
    drops.dropped("jdk.ThreadStart");
    assertThat(drops.due(T0.plusSeconds(61))).contains(Map.of("jdk.ThreadStart", 2L));
    assertThat(drops.due(T0.plusSeconds(200))).isEmpty();
  }
}
