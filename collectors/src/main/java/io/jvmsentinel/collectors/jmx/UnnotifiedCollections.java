package io.jvmsentinel.collectors.jmx;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The collections of one collector that were never notified because the connection was down when
 * they ended. A new connection only receives notifications of collections that end after it
 * subscribed, so a collection long enough to time out a poll (the daemon reconnects meanwhile) is
 * never notified: measured, 17 back-to-back full GCs (20 s) reached the daemon as none.
 *
 * <p>The collector's {@code CollectionCount} and {@code CollectionTime}, polled before the
 * connection was lost and at the first poll after, tell how many collections ended in between and
 * how long they took; the ones notified (by {@code GcInfo} id) are taken off, and the rest were
 * missed. Their notifications may still arrive late (one in flight when the poll read): those are
 * already counted and must not be added again.
 */
final class UnnotifiedCollections {
  // Ids notified since the last poll, kept to subtract; a storm between two polls is bounded.
  private static final int MAX_REMEMBERED = 10_000;

  /** Collections missed between two polls, and their total time. */
  record Missed(long count, long millis) {
    static final Missed NONE = new Missed(0, 0);
  }

  private long polledCount = -1;
  private long polledMillis;
  private long countedUpTo = -1;
  private boolean mayHaveMissed;
  private final NavigableMap<Long, Long> notifiedSincePoll = new TreeMap<>();

  /**
   * A notification of collection {@code id}: whether its time is new, that is not part of missed
   * time already counted.
   */
  synchronized boolean notified(long id, long millis) {
    if (id <= countedUpTo) {
      return false;
    }
    if (id > polledCount && notifiedSincePoll.size() < MAX_REMEMBERED) {
      notifiedSincePoll.put(id, millis);
    }
    return true;
  }

  /**
   * A new connection to the same JVM, or a gap in the notified ids (notifications lost on a live
   * connection): the next poll looks for collections nobody notified.
   */
  synchronized void mayHaveMissed() {
    mayHaveMissed = true;
  }

  /**
   * The collector's totals at a poll; what was missed since the previous poll when a reconnect or a
   * gap lies between them, else nothing.
   */
  synchronized Missed polled(long count, long millis) {
    Missed missed = Missed.NONE;
    if (mayHaveMissed && polledCount >= 0 && count >= polledCount && millis >= polledMillis) {
      Map<Long, Long> notified = notifiedSincePoll.subMap(polledCount, false, count, true);
      long notifiedMillis = notified.values().stream().mapToLong(Long::longValue).sum();
      long unnotified = count - polledCount - notified.size();
      // Notified durations and CollectionTime differ by rounding: with none missed, none is.
      missed =
          unnotified <= 0
              ? Missed.NONE
              : new Missed(unnotified, Math.max(0, millis - polledMillis - notifiedMillis));
      countedUpTo = count;
    }
    mayHaveMissed = false;
    polledCount = count;
    polledMillis = millis;
    notifiedSincePoll.headMap(count, true).clear();
    return missed;
  }
}
