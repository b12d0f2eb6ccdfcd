package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** Warm-up: at least 3 minutes of uptime, extended while the compile rate keeps falling, once. */
class WarmUpTest {

  /** A target watched from boot for {@code seconds}, compiling {@code msPerSecond(t)} at t. */
  private static SignalWindow compiling(int seconds, IntToDoubleFunction msPerSecond) {
    double[] total = {0};
    return Samples.history(
            seconds,
            (s, t) -> {
              s.uptime(t).compileMillis(total[0]);
              total[0] += 2 * msPerSecond.applyAsDouble(t);
            })
        .snapshot();
  }

  @Test
  void theFirstMinutesAreWarmUp() {
    assertThat(WarmUp.DEFAULT.phase(compiling(120, t -> 100))).isEqualTo(WarmUp.Phase.STARTING);
  }

  @Test
  void aCompileRateStillFallingAfterTheMinimumExtendsIt() {
    // Halving every minute: still settling at 4 minutes.
    assertThat(WarmUp.DEFAULT.phase(compiling(240, t -> 1000 / Math.pow(2, t / 60.0))))
        .isEqualTo(WarmUp.Phase.SETTLING);
  }

  @Test
  void aSteadyCompileRateEndsItAtTheMinimum() {
    assertThat(WarmUp.DEFAULT.phase(compiling(200, t -> 100))).isEqualTo(WarmUp.Phase.OVER);
  }

  @Test
  void onceOverItDoesNotComeBackWhenALaterBurstOfNewCodeSettles() {
    // Steady until 4 minutes (warm-up over at 3), a feature's burst of compilation in the fifth
    // minute, falling in the sixth: the lull after a burst is not warm-up (it hid the matrix's
    // deoptimisation storm at 5.5 minutes).
    SignalWindow history = compiling(330, t -> t >= 240 && t < 270 ? 2000 : 100);

    assertThat(WarmUp.DEFAULT.phase(history)).isEqualTo(WarmUp.Phase.OVER);
  }

  @Test
  void itEndsAtTheMaximumWhateverTheCompileRate() {
    WarmUp shortMax = new WarmUp(Duration.ofMinutes(1), Duration.ofMinutes(2));

    assertThat(shortMax.phase(compiling(150, t -> 1000 / Math.pow(2, t / 60.0))))
        .isEqualTo(WarmUp.Phase.OVER);
  }
}
