package io.jvmsentinel.daemon.target;

/**
 * Where a {@link TargetSession}'s connection is, and every move it may make: the session's state
 * machine, in one place. The session thread makes each move ({@link #canBecome}); a move not listed
 * is ignored, which is how a late task (a reconnect queued before a close, a loss notification of a
 * connection already dropped) becomes harmless.
 *
 * <pre>
 * NEW --start--> CONNECTING --connected--> CONNECTED --first poll--> POLLING
 *                    ^           |                |                     |
 *                    |     connect failed   first poll lost      poll failed / loss notice
 *                    |           v                v                     v
 *                    +--delay-- BACKING_OFF <-----+---------------------+
 * any state --close--> STOPPED
 * </pre>
 *
 * Whether a polling target is up or overdue (the watchdog's mark) is {@link SessionStatus}'s: an
 * overdue poll does not move the phase; only its failure does.
 */
enum ConnectionPhase {
  /** Created, not started. */
  NEW,
  /** A connect attempt is queued or running. */
  CONNECTING,
  /** Connected and the pollers told; the first poll has not finished (not yet up). */
  CONNECTED,
  /** Up: polled once, the poll schedules run. */
  POLLING,
  /** A connect failed or the connection was lost; the next attempt waits out the backoff delay. */
  BACKING_OFF,
  /** Closed; nothing runs any more. */
  STOPPED;

  /** Whether a session in this phase may move to {@code next}. */
  boolean canBecome(ConnectionPhase next) {
    if (next == STOPPED) {
      return this != STOPPED;
    }
    return switch (this) {
      case NEW, BACKING_OFF -> next == CONNECTING;
      case CONNECTING -> next == CONNECTED || next == BACKING_OFF;
      case CONNECTED -> next == POLLING || next == BACKING_OFF;
      case POLLING -> next == BACKING_OFF;
      case STOPPED -> false;
    };
  }

  /** Whether a connection is open in this phase (polls run, a loss is news). */
  boolean connected() {
    return this == CONNECTED || this == POLLING;
  }
}
