package io.jvmsentinel.collectors.jfr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded heavy-hitter counting (the Space-Saving algorithm of Metwally et al.): tracks at most
 * {@code capacity} keys; a new key evicts the smallest and inherits its count as an error bound.
 * Counts of the true top keys are never underestimated and are exact while the number of distinct
 * keys stays within capacity. Used for thread creator sites, deoptimised methods and TLS peers,
 * whose cardinality an application (or an attacker) controls.
 *
 * <p>Not thread-safe: each owner updates it from one thread and snapshots under its own lock.
 *
 * @param <K> the key type
 * @param <V> an example value kept per key (e.g. a sample stack trace), replaced on eviction
 */
public final class TopK<K, V> {
  /** One tracked key: its estimated count, the error bound of that estimate, and a sample. */
  public record Entry<K, V>(K key, long count, long error, V sample) {}

  private final int capacity;
  private final Map<K, long[]> counts = new HashMap<>();
  private final Map<K, V> samples = new HashMap<>();
  private long total;

  public TopK(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
  }

  /** Counts one occurrence of {@code key}; {@code sample} is kept if the key is new. */
  public void add(K key, V sample) {
    add(key, 1, sample);
  }

  /**
   * Adds {@code weight} (e.g. nanoseconds blocked) to {@code key}: weighted Space-Saving keeps the
   * same guarantees with weights in place of counts. {@code sample} is kept if the key is new.
   */
  public void add(K key, long weight, V sample) {
    total += weight;
    long[] entry = counts.get(key);
    if (entry != null) {
      entry[0] += weight;
      return;
    }
    if (counts.size() < capacity) {
      counts.put(key, new long[] {weight, 0});
      samples.put(key, sample);
      return;
    }
    K smallest = null;
    long smallestCount = Long.MAX_VALUE;
    for (Map.Entry<K, long[]> candidate : counts.entrySet()) {
      if (candidate.getValue()[0] < smallestCount) {
        smallestCount = candidate.getValue()[0];
        smallest = candidate.getKey();
      }
    }
    counts.remove(smallest);
    samples.remove(smallest);
    counts.put(key, new long[] {smallestCount + weight, smallestCount});
    samples.put(key, sample);
  }

  /**
   * Counts one occurrence of {@code key} and returns the sample kept for it: a new key's sample is
   * made by {@code newSample} (only then), a tracked key keeps its own.
   */
  public V addAndGetSample(K key, java.util.function.Supplier<V> newSample) {
    return addAndGetSample(key, 1, newSample);
  }

  /** As {@link #addAndGetSample(Object, java.util.function.Supplier)}, adding {@code weight}. */
  public V addAndGetSample(K key, long weight, java.util.function.Supplier<V> newSample) {
    add(key, weight, counts.containsKey(key) ? null : newSample.get());
    return samples.get(key);
  }

  /** How many occurrences (or how much weight) were added in all, including untracked keys. */
  public long total() {
    return total;
  }

  /** The {@code n} keys with the highest counts, highest first. */
  public List<Entry<K, V>> top(int n) {
    List<Entry<K, V>> entries = new ArrayList<>(counts.size());
    counts.forEach((key, c) -> entries.add(new Entry<>(key, c[0], c[1], samples.get(key))));
    entries.sort(Comparator.comparingLong((Entry<K, V> e) -> e.count()).reversed());
    return List.copyOf(entries.subList(0, Math.min(n, entries.size())));
  }

  /** The estimated count of {@code key}, 0 when it is not tracked. */
  public long count(K key) {
    long[] entry = counts.get(key);
    return entry == null ? 0 : entry[0];
  }

  public void clear() {
    counts.clear();
    samples.clear();
    total = 0;
  }
}
