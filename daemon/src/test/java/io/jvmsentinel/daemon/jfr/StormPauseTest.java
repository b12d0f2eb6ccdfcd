package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.jfr.StormPause.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a heavy thread storm closes the JFR stream, and when it opens again. */
class StormPauseTest {
  private static final Instant T0 = Instant.parse("2026-11-23T08:00:00Z");

  private final StormPause pause =
      new StormPause(2000, Duration.ofSeconds(15), Duration.ofMinutes(10));
  private Instant now = T0;
  private long started;
  private boolean streaming = true;

  /** Advances one second at {@code rate} starts/s; the stream follows the returned action. */
  private Action tick(long rate) {
    now = now.plusSeconds(1);
    started += rate;
    Action action = pause.update(now, started, streaming);
    if (action == Action.PAUSE) {
      streaming = false;
    } else if (action == Action.RESUME || action == Action.PROBE) {
      streaming = true;
    }
    return action;
  }

  /** Seconds from now until the first {@code wanted} action, or -1 within {@code seconds}. */
  private int secondsUntil(Action wanted, int seconds, long rate) {
    for (int i = 1; i <= seconds; i++) {
      if (tick(rate) == wanted) {
        return i;
      }
    }
    return -1;
  }

  private List<Action> ticks(int seconds, long rate) {
    List<Action> actions = new ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      actions.add(tick(rate));
    }
    return actions;
  }

  @Test
  void ordinaryAndModerateStartRatesNeverPause() {
    assertThat(ticks(600, 1500)).containsOnly(Action.NONE);
    assertThat(pause.paused()).isFalse();
    assertThat(pause.rate()).isEqualTo(1500.0);
  }

  @Test
  void aHeavyStormPausesOnceTheStreamHasCapturedItsOnset() {
    ticks(30, 10);
    // The rate is judged over 3 s: above 2,000/s from the second second of the storm, then the
    // stream keeps running through 15 s of it.
    int at = secondsUntil(Action.PAUSE, 60, 10_000);
    assertThat(at).isBetween(16, 18);
    assertThat(pause.paused()).isTrue();
    assertThat(ticks(60, 10_000)).containsOnly(Action.NONE);
  }

  @Test
  void aStreamThatComesUpDuringAStormCapturesBeforeItPauses() {
    streaming = false;
    ticks(30, 10_000);
    assertThat(pause.paused()).as("no stream to pause").isFalse();
    streaming = true;
    assertThat(secondsUntil(Action.PAUSE, 60, 10_000)).isEqualTo(16);
  }

  @Test
  void theStreamResumesOnceTheStormHasBeenOverForACapture() {
    secondsUntil(Action.PAUSE, 60, 10_000);
    // Half the threshold ends it: a rate hovering at the threshold does not flap.
    assertThat(ticks(30, 1500)).containsOnly(Action.NONE);
    int at = secondsUntil(Action.RESUME, 60, 100);
    assertThat(at).isBetween(16, 18);
    assertThat(pause.paused()).isFalse();
    assertThat(ticks(120, 100)).containsOnly(Action.NONE);
  }

  @Test
  void aLongStormIsProbedEveryPeriodForOneCapture() {
    secondsUntil(Action.PAUSE, 60, 10_000);
    assertThat(secondsUntil(Action.PROBE, 700, 10_000)).isEqualTo(600);
    assertThat(pause.paused()).isFalse();
    // The reopened stream captures the storm again, then pauses.
    assertThat(secondsUntil(Action.PAUSE, 60, 10_000)).isEqualTo(16);
  }

  @Test
  void aSwitchOfCounterRestartsTheRateButKeepsThePause() {
    secondsUntil(Action.PAUSE, 60, 10_000);
    // Paused: the caller now reads another counter, far above the stream's count.
    pause.restartRate();
    started += 50_000_000;
    assertThat(pause.rate()).isNaN();
    assertThat(ticks(30, 10_000)).containsOnly(Action.NONE);
    assertThat(pause.paused()).isTrue();
    assertThat(pause.rate()).isEqualTo(10_000.0);
  }

  @Test
  void resetForgetsAPauseAndTheRate() {
    secondsUntil(Action.PAUSE, 60, 10_000);
    pause.reset();
    assertThat(pause.paused()).isFalse();
    assertThat(pause.rate()).isNaN();
  }

  @Test
  void rejectsImpossibleSettings() {
    assertThatThrownBy(() -> new StormPause(0, Duration.ofSeconds(15), Duration.ofMinutes(10)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StormPause(2000, Duration.ofSeconds(15), Duration.ofSeconds(15)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
