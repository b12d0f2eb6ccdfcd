package io.jvmsentinel.collectors.jfr.threads;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Matches thread starts to thread ends by Java thread id, to spot short-lived threads (one thread
 * per task or request, as in JDK-8246039). Shared by {@link ThreadStartHandler} and {@link
 * ThreadEndHandler}, which both receive it in their constructors.
 *
 * <p>In-flight starts are bounded (oldest evicted first): a target that starts threads that never
 * end, or ends threads we never saw start (started before the stream connected), costs at most
 * {@code capacity} entries, about 8 MB at the default. Thread-safe: updates come from the stream's
 * dispatch thread, reads from anywhere.
 */
public final class ThreadLifetimes {
  public static final int DEFAULT_CAPACITY = 100_000;
  public static final Duration DEFAULT_SHORT_LIVED = Duration.ofSeconds(1);

  private final long shortLivedNanos;
  private final Map<Long, Long> startNanosById;
  private long shortLived;
  private long evicted;

  public ThreadLifetimes() {
    this(DEFAULT_CAPACITY, DEFAULT_SHORT_LIVED);
  }

  /**
   * @param capacity most in-flight starts kept
   * @param shortLivedLimit a thread that ends at most this long after its start is short-lived
   */
  public ThreadLifetimes(int capacity, Duration shortLivedLimit) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.shortLivedNanos = shortLivedLimit.toNanos();
    this.startNanosById =
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            boolean full = size() > capacity;
            if (full) {
              evicted++;
            }
            return full;
          }
        };
  }

  synchronized void started(long javaThreadId, Instant at) {
    if (javaThreadId >= 0 && at != null) {
      startNanosById.put(javaThreadId, nanos(at));
    }
  }

  /** Forgets the thread; true when it ended within the short-lived limit of its start. */
  synchronized boolean ended(long javaThreadId, Instant at) {
    Long start = javaThreadId >= 0 ? startNanosById.remove(javaThreadId) : null;
    if (start == null || at == null) {
      return false;
    }
    // Equal or out-of-order timestamps (same clock tick) count as short-lived.
    boolean isShortLived = nanos(at) - start <= shortLivedNanos;
    if (isShortLived) {
      shortLived++;
    }
    return isShortLived;
  }

  /** The stream lost events in between: a start may never see its end, an end its start. */
  synchronized void clear() {
    startNanosById.clear();
  }

  /** Short-lived threads seen since this daemon started (survives stream restarts). */
  public synchronized long shortLivedCount() {
    return shortLived;
  }

  /** Starts waiting for their end. */
  public synchronized int inFlight() {
    return startNanosById.size();
  }

  /** Starts dropped unmatched because the in-flight map was full. */
  public synchronized long evictedCount() {
    return evicted;
  }

  private static long nanos(Instant at) {
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }
}
