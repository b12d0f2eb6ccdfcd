package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Hands out the events of read chunks at the pace they happened, as a stream would have: the events
 * of a chunk that covered {@code [start, start + duration]} on the target are spread over the same
 * length of time from the moment the chunk was read. Every event then reaches the handlers one read
 * period (plus the read itself) after it happened, and the rates the rules compute over a few
 * seconds stay as smooth as the target's activity, instead of jumping once per read.
 *
 * <p>Times on the target are only compared with each other (offsets within a chunk), never with the
 * daemon's clock, so a skewed target clock cannot stall or rush the hand-out. Pure: the caller
 * passes the daemon's monotonic time. Bounded: beyond {@code maxPending} events, the oldest are
 * handed out at once (bursty, but nothing is lost or held without bound). Thread-safe: a feed adds
 * from its reading thread and releases from its hand-out thread.
 */
final class ChunkPacer<E> {
  /** An event of a chunk and when it ended on the target. */
  record Timed<E>(Instant end, E event) {}

  private record Due<E>(long atNanos, long sequence, E event) {}

  private final int maxPending;
  private final PriorityQueue<Due<E>> pending =
      new PriorityQueue<>(
          Comparator.<Due<E>>comparingLong(Due::atNanos).thenComparingLong(Due::sequence));
  private long sequence;
  private long handedOutUntil = Long.MIN_VALUE;

  ChunkPacer(int maxPending) {
    this.maxPending = maxPending;
  }

  /**
   * Adds the events of a chunk read at {@code readNanos} that covered {@code chunkStart} for {@code
   * chunkDuration} on the target; an event outside that span is clamped to its edge.
   */
  synchronized void add(
      long readNanos, Instant chunkStart, Duration chunkDuration, List<Timed<E>> events) {
    long span = Math.max(0, chunkDuration.toNanos());
    long from =
        handedOutUntil == Long.MIN_VALUE || handedOutUntil - readNanos < 0
            ? readNanos
            : handedOutUntil;
    handedOutUntil = from + span;
    List<Timed<E>> ordered = new ArrayList<>(events);
    ordered.sort(Comparator.comparing(Timed::end));
    for (Timed<E> timed : ordered) {
      long offset = Duration.between(chunkStart, timed.end()).toNanos();
      long clamped = Math.max(0, Math.min(span, offset));
      pending.add(new Due<>(from + clamped, sequence++, timed.event()));
    }
  }

  /** The events due at {@code nowNanos}, and the oldest beyond the bound, in order. */
  synchronized List<E> release(long nowNanos) {
    List<E> due = new ArrayList<>();
    while (!pending.isEmpty()
        && (pending.peek().atNanos() - nowNanos <= 0 || pending.size() > maxPending)) {
      due.add(pending.poll().event());
    }
    return due;
  }

  /** Everything still held, in order (when the feed closes, nothing read is dropped). */
  synchronized List<E> drain() {
    List<E> all = new ArrayList<>();
    while (!pending.isEmpty()) {
      all.add(pending.poll().event());
    }
    return all;
  }

  synchronized int pending() {
    return pending.size();
  }
}
