package io.jvmsentinel.daemon.jfr;

/**
 * Where one target's JFR event feed is in its life cycle, and every move it may make: the stream
 * session's state machine, in one place ({@link StreamLifecycle} makes the moves, the session's
 * thread calls it). What the API shows ({@link StreamState}) follows from the moves.
 *
 * <pre>
 * NOT_STARTED --jfr.enabled false--> DISABLED (for good)
 * NOT_STARTED, STOPPED --connect, stall restart--> start --> FLOWING | RETRY_PENDING | UNAVAILABLE
 * RETRY_PENDING --10 s later, still connected--> start (again)
 * FLOWING --disconnect, stall (then start), storm, close--> STOPPED
 * STOPPED --storm--> STORM_PAUSED --storm over or probe--> STOPPED --> start
 * any state but DISABLED --disconnect, close--> STOPPED
 * </pre>
 *
 * A stream that goes silent is stopped and started again at once by the watchdog; a feed that
 * cannot start is retried while connected; a target that cannot feed events at all waits for the
 * next connection (see {@link StreamLifecycle#retryDue} for the one exception kept from before).
 */
enum StreamPhase {
  /** No connection has come up yet. */
  NOT_STARTED,
  /** {@code jfr.enabled: false}: no feed ever starts. */
  DISABLED,
  /** A feed runs and events flow. */
  FLOWING,
  /** A start failed; the watchdog tries again {@link StreamLifecycle#RETRY_AFTER} later. */
  RETRY_PENDING,
  /** The target cannot feed events (no FlightRecorder MBean, or no streaming on its JDK). */
  UNAVAILABLE,
  /** No feed runs: the connection went away, a stalled feed is being restarted, or closed. */
  STOPPED,
  /** Closed for a heavy thread storm until the load guard reopens it. */
  STORM_PAUSED;

  /** Whether a feed in this phase may move to {@code next}. */
  boolean canBecome(StreamPhase next) {
    return switch (this) {
      case NOT_STARTED -> next != NOT_STARTED && next != STORM_PAUSED;
      case DISABLED -> false;
      case FLOWING, STORM_PAUSED -> next == STOPPED;
      case RETRY_PENDING, UNAVAILABLE -> startOutcome(next) || next == STOPPED;
      case STOPPED -> startOutcome(next) || next == STOPPED || next == STORM_PAUSED;
    };
  }

  /** What a start attempt ends in. */
  private static boolean startOutcome(StreamPhase next) {
    return next == FLOWING || next == RETRY_PENDING || next == UNAVAILABLE;
  }
}
