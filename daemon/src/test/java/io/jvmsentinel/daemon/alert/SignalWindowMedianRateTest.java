package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The usual rate of a window: the median of its slices' rates (ThreadStorm's baseline). */
class SignalWindowMedianRateTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void aShortSpellUnlikeTheRestIsNotTheUsualRate() {
    // 2/s for ten minutes but for one minute at 200/s.
    SignalWindow window =
        Samples.history(
                600,
                (s, t) -> s.threadStarts(2.0 * t + 198.0 * Math.max(0, Math.min(t, 300) - 240)))
            .snapshot();

    assertThat(
            window.medianRateEndingAgo(
                Duration.ZERO, MINUTE, 9, SignalSample::threadStarts, s -> true))
        .isCloseTo(2.0, within(0.01));
    assertThat(window.rate(Duration.ofMinutes(9), SignalSample::threadStarts, s -> true))
        .isGreaterThan(20);
  }

  @Test
  void aRateThatIsUsualMostOfTheTimeIsTheMedian() {
    // 60/s but for two minutes of nothing: the median is 60/s.
    SignalWindow window =
        Samples.history(600, (s, t) -> s.threadStarts(60.0 * Math.min(t, 420))).snapshot();

    assertThat(
            window.medianRateEndingAgo(
                Duration.ZERO, MINUTE, 9, SignalSample::threadStarts, s -> true))
        .isCloseTo(60.0, within(0.01));
  }

  @Test
  void unknownWithFewerThanHalfTheSlicesKnown() {
    SignalWindow fourMinutes = Samples.history(250, (s, t) -> s.threadStarts(10.0 * t)).snapshot();
    SignalWindow fiveMinutes = Samples.history(310, (s, t) -> s.threadStarts(10.0 * t)).snapshot();

    assertThat(
            fourMinutes.medianRateEndingAgo(
                Duration.ZERO, MINUTE, 9, SignalSample::threadStarts, s -> true))
        .isNaN();
    assertThat(
            fiveMinutes.medianRateEndingAgo(
                Duration.ZERO, MINUTE, 9, SignalSample::threadStarts, s -> true))
        .isCloseTo(10.0, within(0.01));
  }
}
