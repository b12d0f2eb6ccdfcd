package io.jvmsentinel.collectors.jfr.tls;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which threads validated a certificate chain just now, shared by {@link X509ValidationHandler}
 * (writes) and {@link TlsHandshakeHandler} (reads). {@code jdk.X509Validation} names no peer, but
 * the JSSE handshake validates the peer's chain on the thread that then commits {@code
 * jdk.TLSHandshake}: a validation on the same thread shortly before a handshake makes it a full
 * one.
 *
 * <p>One mark per thread, so a chain of n certificates (n events) marks once, and the next
 * handshake on that thread consumes the mark. Bounded: the least recently marked threads are
 * forgotten first. Per-stream state: cleared when the stream stops.
 */
public final class RecentValidations {

  /** A validation older than this is not part of the handshake (e.g. a failed handshake's). */
  static final Duration WINDOW = Duration.ofSeconds(10);

  // Events of one flush may be a little out of order across threads; allow clock slack.
  private static final Duration SLACK = Duration.ofSeconds(1);
  private static final int MAX_THREADS = 256;

  private final Map<Long, Instant> marks =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Instant> eldest) {
          return size() > MAX_THREADS;
        }
      };

  /** Thread {@code threadId} validated a certificate (of some chain) at {@code at}. */
  public synchronized void validated(long threadId, Instant at) {
    // Re-insert, so the eviction order follows the latest mark.
    marks.remove(threadId);
    marks.put(threadId, at);
  }

  /**
   * Whether thread {@code threadId} validated a chain within {@link #WINDOW} before {@code
   * handshakeAt}; consumes the mark, so one chain makes at most one handshake full.
   */
  public synchronized boolean consume(long threadId, Instant handshakeAt) {
    Instant at = marks.remove(threadId);
    if (at == null) {
      return false;
    }
    return !at.isAfter(handshakeAt.plus(SLACK)) && !at.isBefore(handshakeAt.minus(WINDOW));
  }

  public synchronized int size() {
    return marks.size();
  }

  public synchronized void clear() {
    marks.clear();
  }
}
