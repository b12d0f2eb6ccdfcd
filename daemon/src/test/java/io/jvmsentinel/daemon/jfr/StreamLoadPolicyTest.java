package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.jfr.StormPause.Action;
import io.jvmsentinel.daemon.jfr.StreamLoadPolicy.StartsFrom;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The stream's load policy: which count it reads, when it pauses, when stacks switch. */
class StreamLoadPolicyTest {
  private static final Instant T0 = Instant.parse("2026-11-25T05:00:00Z");

  private final StreamLoadPolicy policy =
      new StreamLoadPolicy(
          new StormPause(2000, Duration.ofSeconds(15), Duration.ofMinutes(10)),
          new StackSampling(500, Duration.ofSeconds(2), Duration.ofSeconds(10)),
          true);
  private Instant now = T0;
  private boolean streaming = true;
  private long streamStarts;
  private long targetStarts = 1_000_000;

  /**
   * One watchdog second at {@code rate} starts/s, acting on the storm answer as the session does.
   */
  private Action tick(long rate) {
    now = now.plusSeconds(1);
    streamStarts += streaming ? rate : 0;
    targetStarts += rate;
    StartsFrom source = policy.startsFrom(streaming);
    long started = source == StartsFrom.STREAM ? streamStarts : targetStarts;
    Action action = policy.storm(now, source, started, streaming);
    if (action == Action.PAUSE) {
      streaming = false;
    } else if (action == Action.RESUME || action == Action.PROBE) {
      streaming = true;
      policy.streamStarted();
    }
    return action;
  }

  @Test
  void whileStreamingItCountsFromTheStreamAndWhilePausedFromTheTarget() {
    assertThat(policy.startsFrom(true)).isEqualTo(StartsFrom.STREAM);
    assertThat(policy.startsFrom(false)).as("no stream, no pause").isEqualTo(StartsFrom.NOTHING);

    for (int i = 0; i < 20 && streaming; i++) {
      tick(5000);
    }

    assertThat(policy.stormPaused()).isTrue();
    assertThat(policy.startsFrom(false)).isEqualTo(StartsFrom.TARGET);
  }

  @Test
  void withoutAThreadStartHandlerTheTargetCountIsReadWhileStreaming() {
    StreamLoadPolicy noHandler =
        new StreamLoadPolicy(
            new StormPause(2000, Duration.ofSeconds(15), Duration.ofMinutes(10)), null, false);

    assertThat(noHandler.startsFrom(true)).isEqualTo(StartsFrom.TARGET);
  }

  @Test
  void aHeavyStormPausesAfterTheCaptureAndResumesWhenCalm() {
    int pausedAfter = 0;
    while (tick(5000) != Action.PAUSE) {
      pausedAfter++;
      assertThat(pausedAfter).isLessThan(30);
    }
    assertThat(pausedAfter).as("seconds of capture before the pause").isBetween(14, 20);

    int resumedAfter = 0;
    while (tick(10) != Action.RESUME) {
      resumedAfter++;
      assertThat(resumedAfter).isLessThan(30);
    }
    assertThat(policy.stormPaused()).isFalse();
    assertThat(streaming).isTrue();
  }

  @Test
  void switchingBetweenTheTwoCountersIsNotMistakenForAStorm() {
    // The stream's count is small, the target's is a million: a switch must not read as a jump.
    tick(10);
    tick(10);
    streaming = false;
    assertThat(policy.storm(now.plusSeconds(1), StartsFrom.TARGET, targetStarts, false))
        .isEqualTo(Action.NONE);
    assertThat(policy.stormRate()).isNaN();
  }

  @Test
  void stacksSwitchOnlyOnChangesAndANewStreamRecordsEveryStackAgain() {
    Optional<Boolean> firstOff = Optional.empty();
    long starts = 0;
    Instant at = T0;
    int changes = 0;
    for (int i = 0; i < 30; i++) {
      at = at.plusSeconds(1);
      starts += 1000;
      Optional<Boolean> change = policy.stacks(at, starts);
      if (change.isPresent()) {
        changes++;
        if (firstOff.isEmpty()) {
          firstOff = change;
        }
      }
    }
    assertThat(firstOff).as("first switch turns stacks off").contains(false);
    assertThat(policy.sampling()).isTrue();
    assertThat(changes).as("on/off pairs every 10 s window, not every second").isBetween(4, 7);

    policy.streamStarted();

    assertThat(policy.sampling()).isFalse();
    assertThat(policy.stacks(at.plusSeconds(1), starts)).as("already on").isEmpty();
  }

  @Test
  void withBothPartsOffNothingIsDecided() {
    StreamLoadPolicy off = new StreamLoadPolicy(null, null, true);

    assertThat(off.startsFrom(true)).isEqualTo(StartsFrom.NOTHING);
    assertThat(off.storm(T0, StartsFrom.NOTHING, -1, true)).isEqualTo(Action.NONE);
    assertThat(off.stacks(T0, 1_000_000)).isEmpty();
    assertThat(off.stormPaused()).isFalse();
  }
}
