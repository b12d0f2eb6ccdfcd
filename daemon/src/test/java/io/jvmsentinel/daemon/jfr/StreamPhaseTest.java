package io.jvmsentinel.daemon.jfr;

import static io.jvmsentinel.daemon.jfr.StreamPhase.DISABLED;
import static io.jvmsentinel.daemon.jfr.StreamPhase.FLOWING;
import static io.jvmsentinel.daemon.jfr.StreamPhase.NOT_STARTED;
import static io.jvmsentinel.daemon.jfr.StreamPhase.RETRY_PENDING;
import static io.jvmsentinel.daemon.jfr.StreamPhase.STOPPED;
import static io.jvmsentinel.daemon.jfr.StreamPhase.STORM_PAUSED;
import static io.jvmsentinel.daemon.jfr.StreamPhase.UNAVAILABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The feed's state machine: the table of moves, and the life cycle walked through it with a clock
 * moved by hand, as the session's watchdog drives it (no target, no sleeping).
 */
class StreamPhaseTest {
  private static final Set<StreamPhase> START_OUTCOMES =
      EnumSet.of(FLOWING, RETRY_PENDING, UNAVAILABLE);
  private static final Duration STALL_TIMEOUT = Duration.ofSeconds(30);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T00:00:00Z"));
  private final StreamLifecycle lifecycle = new StreamLifecycle(clock);
  private final List<StreamPhase> walked = new ArrayList<>();

  @Test
  void eachPhaseMayMakeExactlyTheMovesOfTheDrawing() {
    Map<StreamPhase, Set<StreamPhase>> moves =
        Map.of(
            NOT_STARTED, EnumSet.of(DISABLED, FLOWING, RETRY_PENDING, UNAVAILABLE, STOPPED),
            DISABLED, EnumSet.noneOf(StreamPhase.class),
            FLOWING, EnumSet.of(STOPPED),
            RETRY_PENDING, union(START_OUTCOMES, STOPPED),
            UNAVAILABLE, union(START_OUTCOMES, STOPPED),
            STOPPED, union(START_OUTCOMES, STOPPED, STORM_PAUSED),
            STORM_PAUSED, EnumSet.of(STOPPED));
    for (StreamPhase from : StreamPhase.values()) {
      for (StreamPhase to : StreamPhase.values()) {
        assertThat(from.canBecome(to))
            .as("%s -> %s", from, to)
            .isEqualTo(moves.get(from).contains(to));
      }
    }
  }

  @Test
  void aFailedStartIsRetriedAfterTheDelayThenAStalledFeedIsRestartedAndADisconnectStopsIt() {
    lifecycle.connected();
    lifecycle.startFailed("cannot start the JFR stream: timeout");
    see();
    clock.advance(StreamLifecycle.RETRY_AFTER.minusMillis(1));
    assertThat(lifecycle.retryDue()).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(lifecycle.retryDue()).isTrue();

    lifecycle.flushed();
    lifecycle.started("streaming");
    see();
    assertThat(lifecycle.state().streaming()).isTrue();
    clock.advance(STALL_TIMEOUT.plusMillis(1));
    assertThat(lifecycle.stalled(STALL_TIMEOUT)).isPresent();
    // The watchdog's restart: stop, then start at once.
    lifecycle.stopped();
    see();
    lifecycle.flushed();
    lifecycle.started("streaming");
    see();
    assertThat(lifecycle.stalled(STALL_TIMEOUT)).as("silence counts from the restart").isEmpty();

    lifecycle.stopped();
    see();
    assertThat(walked).containsExactly(RETRY_PENDING, FLOWING, STOPPED, FLOWING, STOPPED);
    assertThat(lifecycle.state().streaming()).isFalse();
  }

  @Test
  void aStormPauseHoldsTheFeedClosedWithoutRetriesUntilTheGuardReopensIt() {
    lifecycle.connected();
    lifecycle.flushed();
    lifecycle.started("streaming");
    lifecycle.stopped();
    lifecycle.paused("paused during a thread storm");
    see();
    clock.advance(Duration.ofMinutes(5));
    assertThat(lifecycle.retryDue()).isFalse();

    lifecycle.resuming();
    see();
    lifecycle.startFailed("cannot start the JFR stream: timeout");
    see();
    assertThat(walked).containsExactly(STORM_PAUSED, STOPPED, RETRY_PENDING);
  }

  @Test
  void aStopFromEveryPhaseEndsStoppedExceptADisabledFeedWhichStaysDisabled() {
    for (StreamPhase from : StreamPhase.values()) {
      StreamLifecycle fresh = new StreamLifecycle(clock);
      reach(fresh, from);
      assertThat(fresh.phase()).isEqualTo(from);
      fresh.stopped();
      assertThat(fresh.phase())
          .as("stopped from %s", from)
          .isEqualTo(from == DISABLED ? DISABLED : STOPPED);
      assertThat(fresh.state().streaming()).isFalse();
    }
  }

  /** Drives a new life cycle to {@code phase} along moves the drawing has. */
  private static void reach(StreamLifecycle lifecycle, StreamPhase phase) {
    switch (phase) {
      case NOT_STARTED -> {}
      case DISABLED -> lifecycle.disabled();
      case FLOWING -> lifecycle.started("streaming");
      case RETRY_PENDING -> lifecycle.startFailed("cannot start the JFR stream: timeout");
      case UNAVAILABLE -> lifecycle.unavailable("the target has no FlightRecorder MBean");
      case STOPPED -> lifecycle.stopped();
      case STORM_PAUSED -> {
        lifecycle.stopped();
        lifecycle.paused("paused during a thread storm");
      }
    }
  }

  private void see() {
    walked.add(lifecycle.phase());
  }

  private static Set<StreamPhase> union(Set<StreamPhase> some, StreamPhase... more) {
    Set<StreamPhase> all = EnumSet.copyOf(some);
    all.addAll(List.of(more));
    return all;
  }
}
