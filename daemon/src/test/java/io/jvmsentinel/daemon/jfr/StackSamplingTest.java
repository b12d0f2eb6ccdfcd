package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan for thread-start stack traces: always on at low rates, sampling windows at high. */
class StackSamplingTest {
  private static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");

  private final StackSampling sampling =
      new StackSampling(200, Duration.ofSeconds(1), Duration.ofSeconds(10));
  private Instant now = T0;
  private long total;

  /** Advances one second at {@code rate} starts/s and returns the decision. */
  private boolean tick(long rate) {
    now = now.plusSeconds(1);
    total += rate;
    return sampling.update(now, total);
  }

  private List<Boolean> ticks(int seconds, long rate) {
    List<Boolean> decisions = new ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      decisions.add(tick(rate));
    }
    return decisions;
  }

  @Test
  void stacksStayOnBelowTheRateSoASingleCreatorIsCaught() {
    assertThat(ticks(60, 150)).containsOnly(true);
    assertThat(sampling.sampling()).isFalse();
  }

  @Test
  void aStormSwitchesToOneSecondWindowsEveryTenSecondsStartingWithAPause() {
    ticks(5, 10);
    List<Boolean> storm = ticks(40, 4000);

    // The starts that revealed the storm were recorded with stacks (they reach the daemon 1 to 2 s
    // after they happen), so sampling may begin with a pause at once.
    int firstOff = storm.indexOf(false);
    assertThat(firstOff).isBetween(0, 3);
    assertThat(storm.subList(0, firstOff)).doesNotContain(false);
    List<Boolean> sampled = storm.subList(firstOff, storm.size());
    assertThat(sampled.subList(0, 9)).containsOnly(false);
    assertThat(sampled.get(9)).isTrue();
    assertThat(sampled.subList(10, 19)).containsOnly(false);
    assertThat(sampled.get(19)).isTrue();
    assertThat(sampled.stream().filter(on -> on).count()).isEqualTo(sampled.size() / 10);
    assertThat(sampling.sampling()).isTrue();
  }

  @Test
  void backToAlwaysOnOnlyBelowHalfTheRate() {
    ticks(10, 4000);
    assertThat(sampling.sampling()).isTrue();

    // Between half the rate and the rate: still sampling (no flapping at the limit).
    ticks(20, 150);
    assertThat(sampling.sampling()).isTrue();

    List<Boolean> calm = ticks(10, 50);
    assertThat(sampling.sampling()).isFalse();
    assertThat(calm.subList(calm.size() - 5, calm.size())).containsOnly(true);
  }

  @Test
  void aOneSecondBurstFromAFlushIsNotAStorm() {
    // Events arrive in flushes: 400 starts delivered in one second after two quiet ones is
    // 133/s over the window, not 400/s.
    ticks(5, 0);
    tick(400);
    tick(0);
    tick(0);
    assertThat(sampling.sampling()).isFalse();
  }

  @Test
  void resetStartsOverWithStacksOn() {
    ticks(10, 4000);
    assertThat(sampling.sampling()).isTrue();

    sampling.reset();

    assertThat(sampling.sampling()).isFalse();
    // Right after a restart the rate is unknown: stacks on until it is measured.
    assertThat(tick(4000)).isTrue();
  }

  @Test
  void rejectsAWindowAsLongAsItsPeriod() {
    assertThatThrownBy(() -> new StackSampling(200, Duration.ofSeconds(5), Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
