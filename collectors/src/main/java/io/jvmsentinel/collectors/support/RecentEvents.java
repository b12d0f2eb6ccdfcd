package io.jvmsentinel.collectors.support;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The last few events of a rare kind (code cache full, JIT restart), oldest first, for detection
 * rules and the API. Bounded: a target that fires thousands keeps only the newest {@code capacity}
 * plus a total count.
 */
public final class RecentEvents<T> {
  private final int capacity;
  private final Deque<T> events = new ArrayDeque<>();
  private long total;

  public RecentEvents(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
  }

  public synchronized void add(T event) {
    total++;
    if (events.size() == capacity) {
      events.removeFirst();
    }
    events.addLast(event);
  }

  /** A copy of the retained events, oldest first. */
  public synchronized List<T> snapshot() {
    return List.copyOf(events);
  }

  /** Events added since the last {@link #clear}, including those no longer retained. */
  public synchronized long total() {
    return total;
  }

  public synchronized void clear() {
    events.clear();
    total = 0;
  }
}
