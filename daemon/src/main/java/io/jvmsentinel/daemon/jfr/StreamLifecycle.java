package io.jvmsentinel.daemon.jfr;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life cycle of one target's JFR event feed, as the session's watchdog sees it: its phase
 * ({@link StreamPhase}, the state machine with every allowed move), whether events flow or why not
 * ({@link StreamState}, published to other threads), when a failed start is tried again, when the
 * feed last showed life, and when the recording's size is read next. Transitions only; the session
 * makes the remote calls and logs. Time comes from the injected clock, so the transitions are
 * tested without a target. Written by the session thread only (the feed's flush callback writes the
 * last sign of life); read from any thread through {@link #state()}.
 */
final class StreamLifecycle {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  /** How long after a failed start the watchdog tries again. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(10);

  /** How often the recording's size is read (and leftovers closed, the evidence start retried). */
  static final Duration SIZE_CHECK_EVERY = Duration.ofSeconds(10);

  private final Clock clock;
  private volatile StreamPhase phase = StreamPhase.NOT_STARTED;
  private volatile StreamState state = StreamState.NOT_STARTED;
  // When a failed start is tried again; null: no retry pending.
  private Instant retryAt;
  private Instant nextSizeCheck = Instant.MIN;
  private String lastFailure;
  private volatile Instant lastFlush;

  StreamLifecycle(Clock clock) {
    this.clock = clock;
  }

  /** Whether events flow, or why not. */
  StreamState state() {
    return state;
  }

  /** Where the feed is in its life cycle. */
  StreamPhase phase() {
    return phase;
  }

  /**
   * Moves to {@code next}. A move the drawing does not have is a bug in the caller: logged, and
   * made all the same, so what the API shows never lags behind the feed.
   */
  private void move(StreamPhase next) {
    if (!phase.canBecome(next)) {
      log.warn("JFR feed life cycle: unexpected move {} -> {} (a bug; moving anyway)", phase, next);
    }
    phase = next;
  }

  /** JFR is configured off: the feed never starts. */
  void disabled() {
    move(StreamPhase.DISABLED);
    state = state.withReason("disabled by configuration (jfr.enabled: false)");
  }

  /** A new connection: any pending retry is moot, the connect starts a feed. */
  void connected() {
    retryAt = null;
  }

  /**
   * The feed delivered up to a new point (proof of life), or is starting (its silence counts from
   * now); called from the feed's thread too.
   */
  void flushed() {
    lastFlush = clock.instant();
  }

  /**
   * Events flow, described by {@code feed} ("streaming", "reading the recording in chunks ...").
   */
  void started(String feed) {
    move(StreamPhase.FLOWING);
    lastFailure = null;
    state = StreamState.flowing(feed);
  }

  /**
   * A start failed: tried again {@link #RETRY_AFTER} from now. True when {@code message} differs
   * from the last failure's (the caller logs it once until it changes).
   */
  boolean startFailed(String message) {
    move(StreamPhase.RETRY_PENDING);
    retryAt = clock.instant().plus(RETRY_AFTER);
    state = state.withReason(message);
    if (message.equals(lastFailure)) {
      return false;
    }
    lastFailure = message;
    return true;
  }

  /**
   * The target cannot feed events (no JFR, or a JDK without remote streaming). True when the reason
   * is new (the caller logs it once).
   */
  boolean unavailable(String reason) {
    boolean changed = !reason.equals(state.unavailableReason());
    move(StreamPhase.UNAVAILABLE);
    state = new StreamState(false, reason);
    return changed;
  }

  /** The feed was closed (or none ran): no events, the last reason stays; disabled stays so. */
  void stopped() {
    if (phase != StreamPhase.DISABLED) {
      move(StreamPhase.STOPPED);
    }
    state = new StreamState(false, state.unavailableReason());
  }

  /** Closed for a thread storm: no retry until the storm guard reopens it. */
  void paused(String reason) {
    move(StreamPhase.STORM_PAUSED);
    retryAt = null;
    state = state.withReason(reason);
  }

  /** Reopening after a storm pause: the pause's reason goes. */
  void resuming() {
    move(StreamPhase.STOPPED);
    state = state.withReason(null);
  }

  /**
   * Whether a failed start is due to be tried again now (no feed runs). As before the phases were
   * drawn, a target found unavailable on a retry keeps being retried (quietly) while connected.
   */
  boolean retryDue() {
    return state.unavailableReason() != null
        && retryAt != null
        && !clock.instant().isBefore(retryAt);
  }

  /** How long the running feed has been silent, when longer than {@code stallTimeout}. */
  Optional<Duration> stalled(Duration stallTimeout) {
    Duration silent = Duration.between(lastFlush, clock.instant());
    return silent.compareTo(stallTimeout) > 0 ? Optional.of(silent) : Optional.empty();
  }

  /** Whether the recording's size is due to be read now; if so, the next read is scheduled. */
  boolean sizeCheckDue() {
    Instant now = clock.instant();
    if (now.isBefore(nextSizeCheck)) {
      return false;
    }
    nextSizeCheck = now.plus(SIZE_CHECK_EVERY);
    return true;
  }
}
