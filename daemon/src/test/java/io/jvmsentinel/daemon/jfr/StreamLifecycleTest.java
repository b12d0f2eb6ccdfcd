package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The feed's life cycle, driven by a clock the test moves: no target, no sleeping. */
class StreamLifecycleTest {
  private static final Duration STALL_TIMEOUT = Duration.ofSeconds(15);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T10:00:00Z"));
  private final StreamLifecycle lifecycle = new StreamLifecycle(clock);

  @Test
  void startsNotStartedAndAConfiguredOffFeedSaysWhy() {
    assertThat(lifecycle.state()).isEqualTo(StreamState.NOT_STARTED);
    assertThat(lifecycle.state().describe()).isEqualTo("not started");

    lifecycle.disabled();

    assertThat(lifecycle.state().streaming()).isFalse();
    assertThat(lifecycle.state().describe())
        .isEqualTo("disabled by configuration (jfr.enabled: false)");
    assertThat(lifecycle.retryDue()).isFalse();
  }

  @Test
  void aStartedFeedFlowsAndItsStopKeepsNoReason() {
    lifecycle.connected();
    lifecycle.flushed();
    lifecycle.started("streaming");

    assertThat(lifecycle.state().streaming()).isTrue();
    assertThat(lifecycle.state().describe()).isEqualTo("streaming");

    lifecycle.stopped();

    assertThat(lifecycle.state().streaming()).isFalse();
    assertThat(lifecycle.state().unavailableReason()).isNull();
    assertThat(lifecycle.retryDue()).as("a stopped feed is restarted by its caller").isFalse();
  }

  @Test
  void aFailedStartIsRetriedTenSecondsLaterAndLoggedOnceUntilTheReasonChanges() {
    lifecycle.connected();

    assertThat(lifecycle.startFailed("cannot start the JFR stream: timeout")).isTrue();
    assertThat(lifecycle.state().describe()).isEqualTo("cannot start the JFR stream: timeout");
    assertThat(lifecycle.retryDue()).isFalse();

    clock.advance(StreamLifecycle.RETRY_AFTER.minusMillis(1));
    assertThat(lifecycle.retryDue()).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(lifecycle.retryDue()).isTrue();

    assertThat(lifecycle.startFailed("cannot start the JFR stream: timeout"))
        .as("the same reason again: not logged again")
        .isFalse();
    assertThat(lifecycle.retryDue()).as("the next retry is ten seconds on").isFalse();
    assertThat(lifecycle.startFailed("cannot start the JFR stream: refused")).isTrue();

    lifecycle.flushed();
    lifecycle.started("streaming");
    assertThat(lifecycle.startFailed("cannot start the JFR stream: refused"))
        .as("a success in between: the failure is news again")
        .isTrue();
  }

  @Test
  void aNewConnectionOrAStormPauseCancelsAPendingRetry() {
    lifecycle.startFailed("cannot start the JFR stream: timeout");
    lifecycle.connected();
    clock.advance(Duration.ofMinutes(1));
    assertThat(lifecycle.retryDue()).isFalse();

    lifecycle.startFailed("cannot start the JFR stream: timeout");
    lifecycle.paused("paused during a thread storm");
    clock.advance(Duration.ofMinutes(1));
    assertThat(lifecycle.retryDue()).isFalse();
    assertThat(lifecycle.state().describe()).isEqualTo("paused during a thread storm");

    lifecycle.resuming();
    assertThat(lifecycle.state().unavailableReason()).isNull();
  }

  @Test
  void anUnavailableTargetSaysWhyOnceAndIsNotRetried() {
    lifecycle.connected();

    assertThat(lifecycle.unavailable("the target has no FlightRecorder MBean")).isTrue();
    assertThat(lifecycle.unavailable("the target has no FlightRecorder MBean")).isFalse();
    assertThat(lifecycle.state().streaming()).isFalse();
    assertThat(lifecycle.state().describe()).isEqualTo("the target has no FlightRecorder MBean");
    clock.advance(Duration.ofMinutes(1));
    assertThat(lifecycle.retryDue()).isFalse();
  }

  @Test
  void aFeedIsStalledOnlyOnceSilentLongerThanTheTimeoutAndEachFlushRestartsTheCount() {
    lifecycle.flushed();
    lifecycle.started("streaming");

    clock.advance(STALL_TIMEOUT);
    assertThat(lifecycle.stalled(STALL_TIMEOUT)).isEmpty();
    lifecycle.flushed();
    clock.advance(STALL_TIMEOUT.plusMillis(1));

    assertThat(lifecycle.stalled(STALL_TIMEOUT)).contains(STALL_TIMEOUT.plusMillis(1));
  }

  @Test
  void theRecordingSizeIsReadAtOnceThenEveryTenSeconds() {
    assertThat(lifecycle.sizeCheckDue()).isTrue();
    assertThat(lifecycle.sizeCheckDue()).isFalse();

    clock.advance(StreamLifecycle.SIZE_CHECK_EVERY.minusMillis(1));
    assertThat(lifecycle.sizeCheckDue()).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(lifecycle.sizeCheckDue()).isTrue();
    assertThat(lifecycle.sizeCheckDue()).isFalse();
  }
}
