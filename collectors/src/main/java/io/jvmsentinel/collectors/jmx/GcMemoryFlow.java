package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.lang.management.MemoryUsage;
import java.util.Map;

/**
 * Allocation, promotion and live data size from the heap pools' usage before and after each
 * collection, the way Micrometer's JvmGcMetrics derives them, but from the target's GC
 * notifications: bytes allocated are the growth of the young (or single) heap pool from after one
 * collection to before the next; bytes promoted the growth of the old generation across a
 * collection; live data the old generation after a major collection.
 */
final class GcMemoryFlow {
  private final Counter allocated;
  private final Counter promoted;
  private volatile double liveDataSize = Double.NaN;
  private volatile double maxDataSize = Double.NaN;
  private long youngAfterPrevious = -1;

  GcMemoryFlow(MeterRegistry registry, Tags tags) {
    allocated = Metric.JVM_GC_MEMORY_ALLOCATED.counter(registry, tags);
    promoted = Metric.JVM_GC_MEMORY_PROMOTED.counter(registry, tags);
    Metric.JVM_GC_LIVE_DATA_SIZE.gauge(registry, tags, this, f -> f.liveDataSize);
    Metric.JVM_GC_MAX_DATA_SIZE.gauge(registry, tags, this, f -> f.maxDataSize);
  }

  /** One collection; {@code major} when it collected the old generation (or a whole cycle). */
  synchronized void collected(
      Map<String, MemoryUsage> before, Map<String, MemoryUsage> after, boolean major) {
    for (Map.Entry<String, MemoryUsage> pool : before.entrySet()) {
      String name = pool.getKey();
      MemoryUsage afterGc = after.get(name);
      if (afterGc == null) {
        continue;
      }
      if (isAllocationPool(name)) {
        long growth = pool.getValue().getUsed() - Math.max(youngAfterPrevious, 0);
        if (youngAfterPrevious >= 0 && growth > 0) {
          allocated.increment(growth);
        }
        youngAfterPrevious = afterGc.getUsed();
      }
      if (isLongLivedPool(name)) {
        long growth = afterGc.getUsed() - pool.getValue().getUsed();
        if (growth > 0 && !isNonGenerational(name)) {
          promoted.increment(growth);
        }
        if (major || growth < 0) {
          liveDataSize = afterGc.getUsed();
        }
        maxDataSize = afterGc.getMax() >= 0 ? afterGc.getMax() : Double.NaN;
      }
    }
  }

  /** A new connection: the previous young size belongs to the old one, and may be another JVM. */
  synchronized void reset() {
    youngAfterPrevious = -1;
    liveDataSize = Double.NaN;
    maxDataSize = Double.NaN;
  }

  static boolean isAllocationPool(String pool) {
    return pool.endsWith("Eden Space")
        || pool.equals("ZGC Young Generation")
        || isNonGenerational(pool);
  }

  static boolean isLongLivedPool(String pool) {
    return pool.endsWith("Old Gen")
        || pool.endsWith("Tenured Gen")
        || pool.equals("ZGC Old Generation")
        || isNonGenerational(pool);
  }

  private static boolean isNonGenerational(String pool) {
    return pool.equals("ZHeap") || pool.equals("Shenandoah");
  }
}
