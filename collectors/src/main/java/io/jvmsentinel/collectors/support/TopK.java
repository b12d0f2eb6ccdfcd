package io.jvmsentinel.collectors.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
  private final Map<K, Tracked<V>> tracked = new HashMap<>();
  // Keys by count, each count's keys in the order they reached it: the smallest is found, and a
  // key moved to its next count, in O(log capacity) (a scan of all keys was O(capacity) per add).
  private final TreeMap<Long, LinkedHashSet<K>> byCount = new TreeMap<>();
  private long total;

  /** One key's state: its estimated count, the error bound of that estimate, and its sample. */
  private static final class Tracked<V> {
    long count;
    final long error;
    final V sample;

    Tracked(long count, long error, V sample) {
      this.count = count;
      this.error = error;
      this.sample = sample;
    }
  }

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
    Tracked<V> entry = tracked.get(key);
    if (entry != null) {
      unlink(key, entry.count);
      entry.count += weight;
      link(key, entry.count);
      return;
    }
    if (tracked.size() < capacity) {
      tracked.put(key, new Tracked<>(weight, 0, sample));
      link(key, weight);
      return;
    }
    Map.Entry<Long, LinkedHashSet<K>> smallestBucket = byCount.firstEntry();
    long smallestCount = smallestBucket.getKey();
    K smallest = smallestBucket.getValue().iterator().next();
    unlink(smallest, smallestCount);
    tracked.remove(smallest);
    tracked.put(key, new Tracked<>(smallestCount + weight, smallestCount, sample));
    link(key, smallestCount + weight);
  }

  private void link(K key, long count) {
    byCount.computeIfAbsent(count, c -> new LinkedHashSet<>()).add(key);
  }

  private void unlink(K key, long count) {
    LinkedHashSet<K> keys = byCount.get(count);
    keys.remove(key);
    if (keys.isEmpty()) {
      byCount.remove(count);
    }
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
    add(key, weight, tracked.containsKey(key) ? null : newSample.get());
    return tracked.get(key).sample;
  }

  /** How many occurrences (or how much weight) were added in all, including untracked keys. */
  public long total() {
    return total;
  }

  /** The {@code n} keys with the highest counts, highest first. */
  public List<Entry<K, V>> top(int n) {
    List<Entry<K, V>> entries = new ArrayList<>(Math.min(n, tracked.size()));
    for (LinkedHashSet<K> keys : byCount.descendingMap().values()) {
      for (K key : keys) {
        if (entries.size() == n) {
          return List.copyOf(entries);
        }
        Tracked<V> entry = tracked.get(key);
        entries.add(new Entry<>(key, entry.count, entry.error, entry.sample));
      }
    }
    return List.copyOf(entries);
  }

  /** The estimated count of {@code key}, 0 when it is not tracked. */
  public long count(K key) {
    Tracked<V> entry = tracked.get(key);
    return entry == null ? 0 : entry.count;
  }

  public void clear() {
    tracked.clear();
    byCount.clear();
    total = 0;
  }
}
