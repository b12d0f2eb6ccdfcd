package io.jvmsentinel.collectors.support;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Readings for things only discovered once connected (memory pools, collectors, compilers). The
 * meters of a key are registered the first time the key is seen and kept for good, so a series
 * continues across reconnects; a key the new connection no longer has reads NaN.
 */
public final class KeyedReadings<K, T> {
  private final Map<K, LatestReading<T>> readings = new ConcurrentHashMap<>();
  private final BiConsumer<K, LatestReading<T>> registerMeters;

  /** {@code registerMeters} binds the meters of a newly seen key to its reading. */
  public KeyedReadings(BiConsumer<K, LatestReading<T>> registerMeters) {
    this.registerMeters = registerMeters;
  }

  public LatestReading<T> get(K key) {
    return readings.computeIfAbsent(
        key,
        k -> {
          LatestReading<T> reading = new LatestReading<>();
          registerMeters.accept(k, reading);
          return reading;
        });
  }

  public void clearAll() {
    readings.values().forEach(LatestReading::clear);
  }
}
