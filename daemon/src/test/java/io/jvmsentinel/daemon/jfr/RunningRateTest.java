package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The start rate that drives stack sampling and storm pause, fed once a second. */
class RunningRateTest {
  private static final Instant T0 = Instant.parse("2026-11-25T05:00:00Z");
  private final RunningRate rate = new RunningRate(Duration.ofSeconds(10));

  @Test
  void isUnknownUntilHalfTheWindowIsCovered() {
    assertThat(rate.update(T0, 0)).isNaN();
    assertThat(rate.update(T0.plusSeconds(4), 400)).isNaN();
    assertThat(rate.update(T0.plusSeconds(5), 500)).isCloseTo(100.0, within(1e-9));
  }

  @Test
  void measuresOverTheLastWindowOnly() {
    // 1,000/s for 20 s, then 10/s: after a full window at the new rate only it counts.
    long total = 0;
    for (int s = 0; s <= 20; s++) {
      rate.update(T0.plusSeconds(s), total);
      total += 1_000;
    }
    total -= 1_000;
    double last = Double.NaN;
    for (int s = 21; s <= 31; s++) {
      total += 10;
      last = rate.update(T0.plusSeconds(s), total);
    }
    assertThat(last).isCloseTo(10.0, within(1e-9));
  }

  @Test
  void spansAtLeastTheWindowWhenReadingsAreIrregular() {
    rate.update(T0, 0);
    rate.update(T0.plusSeconds(3), 300);
    // A 9 s gap: the oldest reading kept still leaves at least a window behind "now".
    double value = rate.update(T0.plusSeconds(12), 1_200);
    assertThat(value).isCloseTo(100.0, within(1e-9));
  }

  @Test
  void aCountThatWentDownReadsZero() {
    rate.update(T0, 5_000);
    assertThat(rate.update(T0.plusSeconds(6), 20)).isZero();
  }

  @Test
  void resetStartsOver() {
    rate.update(T0, 0);
    rate.update(T0.plusSeconds(6), 600);
    rate.reset();
    assertThat(rate.update(T0.plusSeconds(7), 700)).isNaN();
    assertThat(rate.update(T0.plusSeconds(12), 1_200)).isCloseTo(100.0, within(1e-9));
  }
}
