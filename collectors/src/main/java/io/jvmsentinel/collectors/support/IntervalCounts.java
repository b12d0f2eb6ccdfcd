package io.jvmsentinel.collectors.support;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What happened since the last detection tick, by key (a deoptimised or recompiled method): a
 * bounded {@link TopK} that the tick drains. Detection keeps the drained tables per tick, so an
 * alert names what happened in its own window, not since the stream started.
 *
 * <p>Thread-safe: the stream thread adds, the detection thread drains.
 */
public final class IntervalCounts {
  /** Keys tracked within one interval; rarer keys are estimates (Space-Saving). */
  static final int CAPACITY = 64;

  /** Details kept per key, here and where detection sums intervals over a window. */
  public static final int MAX_DETAILS = 8;

  /**
   * One key's count within an interval.
   *
   * @param key e.g. {@code fully.qualified.Class.method}
   * @param count occurrences in the interval
   * @param details distinct details seen for it (reasons, tiers), first seen first, at most 8
   */
  public record Count(String key, long count, List<String> details) {
    public Count {
      details = List.copyOf(details);
    }
  }

  private TopK<String, Set<String>> current = new TopK<>(CAPACITY);

  public synchronized void add(String key, String detail) {
    Set<String> details = current.addAndGetSample(key, LinkedHashSet::new);
    if (detail != null && details.size() < MAX_DETAILS) {
      details.add(detail);
    }
  }

  /** The {@code n} busiest keys since the last drain, busiest first; starts a new interval. */
  public synchronized List<Count> drain(int n) {
    List<Count> top = new ArrayList<>();
    for (TopK.Entry<String, Set<String>> entry : current.top(n)) {
      top.add(new Count(entry.key(), entry.count(), List.copyOf(entry.sample())));
    }
    current = new TopK<>(CAPACITY);
    return List.copyOf(top);
  }
}
