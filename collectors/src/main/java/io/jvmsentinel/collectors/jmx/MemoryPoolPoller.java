package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Used, committed, max and peak of every memory pool: the heap pools and the code cache segments
 * ({@code CodeHeap 'non-nmethods'}, {@code 'profiled nmethods'}, {@code 'non-profiled nmethods'},
 * or the single {@code CodeCache} pool when the cache is not segmented, e.g. below 240 MB; JDK 8,
 * which never segments it, names its one pool {@code Code Cache}). Pools are discovered once per
 * connection; each poll is one read per pool.
 *
 * <p>The target decides which pools it has (any code may register an MBean under {@code
 * java.lang:type=MemoryPool}). The pools registered under a name the JVMs use ({@link
 * JvmPoolNames#MEMORY}, a fixed list) are always read, first; other pools fill what is left of
 * {@value #MAX_POOLS} per connection ({@link ObjectNames#ownFirst}), and at most {@value
 * #MAX_POOLS} such names get series over the poller's life. The rest are never read, only counted
 * in {@code jvm_sentinel_tag_values_capped_total}; a made-up pool whose {@code Name} is one of the
 * JVM's own names, or another pool's, is refused the same way (it would share the real pool's
 * series).
 */
public final class MemoryPoolPoller implements JmxPoller {
  private static final String USAGE = "Usage";
  private static final String PEAK_USAGE = "PeakUsage";
  private static final String COLLECTION_USAGE = "CollectionUsage";

  /** A pool as discovered on the current connection. */
  public record Pool(ObjectName objectName, String id, String area) {
    /**
     * A code cache segment: {@code CodeHeap '...'}, or {@code CodeCache} when not segmented, or
     * {@code Code Cache} on JDK 8 (jdk8u {@code hotspot/src/share/vm/services/memoryService.cpp}).
     */
    public boolean isCodeCache() {
      return id.startsWith("CodeHeap") || id.equals("CodeCache") || id.equals("Code Cache");
    }
  }

  /**
   * One pool's usage; fields are NaN where the target did not say.
   *
   * @param afterLastGc what the pool's last collection left ({@code CollectionUsage.used}); NaN for
   *     a pool without collections (code cache, metaspace)
   */
  public record PoolUsage(
      double used, double committed, double max, double peak, double afterLastGc) {
    public PoolUsage(double used, double committed, double max, double peak) {
      this(used, committed, max, peak, Double.NaN);
    }
  }

  static final int MAX_POOLS = 32;

  private final Tags tags;
  private final CardinalityCap poolIds = new CardinalityCap(MAX_POOLS);
  private KeyedReadings<Pool, PoolUsage> readings;
  private volatile List<Pool> pools = List.of();

  public MemoryPoolPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    poolIds.bindTo(registry, tags, Metric.JVM_MEMORY_USED, "id");
    readings =
        new KeyedReadings<>(
            (pool, reading) -> {
              Tags poolTags = tags.and("area", pool.area(), "id", pool.id());
              Metric.JVM_MEMORY_USED.gauge(
                  registry, poolTags, reading, r -> r.gauge(PoolUsage::used));
              Metric.JVM_MEMORY_COMMITTED.gauge(
                  registry, poolTags, reading, r -> r.gauge(PoolUsage::committed));
              Metric.JVM_MEMORY_MAX.gauge(
                  registry, poolTags, reading, r -> r.gauge(PoolUsage::max));
              Metric.JVM_MEMORY_PEAK.gauge(
                  registry, poolTags, reading, r -> r.gauge(PoolUsage::peak));
              // Only heap pools are collected; the others would read NaN for ever.
              if (pool.area().equals("heap")) {
                Metric.JVM_MEMORY_USED_AFTER_GC.gauge(
                    registry, poolTags, reading, r -> r.gauge(PoolUsage::afterLastGc));
              }
            });
  }

  @Override
  public void connected(MBeanServerConnection mbeans) throws IOException, JMException {
    List<Pool> found = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (ObjectName name :
        ObjectNames.ownFirst(
            mbeans, ObjectNames.MEMORY_POOLS, JvmPoolNames.MEMORY, MAX_POOLS, poolIds)) {
      Attributes a = Attributes.read(mbeans, name, "Name", "Type");
      String id;
      if (JvmPoolNames.registeredAs(name, JvmPoolNames.MEMORY)) {
        // The JVM's own pool: known by the name it is registered under, never capped.
        id = name.getKeyProperty("name");
      } else {
        id = a.string("Name", name.getKeyProperty("name"));
        if (JvmPoolNames.MEMORY.contains(id) || ids.contains(id)) {
          poolIds.refuse();
          continue;
        }
        if (!poolIds.admit(id)) {
          continue;
        }
      }
      if (!ids.add(id)) {
        continue;
      }
      String area = "HEAP".equals(a.string("Type", "")) ? "heap" : "nonheap";
      found.add(new Pool(name, id, area));
    }
    pools = List.copyOf(found);
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    for (Pool pool : pools) {
      read(mbeans, pool);
    }
  }

  /**
   * The code cache segments only (the code cache rules' signal); the heap pools wait for the poll.
   */
  @Override
  public void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException, JMException {
    for (Pool pool : pools) {
      if (pool.isCodeCache()) {
        read(mbeans, pool);
      }
    }
  }

  private void read(MBeanServerConnection mbeans, Pool pool) throws IOException, JMException {
    // One round trip for all three; a pool without collections answers null for the last.
    Attributes a = Attributes.read(mbeans, pool.objectName(), USAGE, PEAK_USAGE, COLLECTION_USAGE);
    CompositeData usage = composite(a.get(USAGE));
    CompositeData peak = composite(a.get(PEAK_USAGE));
    CompositeData afterGc = composite(a.get(COLLECTION_USAGE));
    readings
        .get(pool)
        .update(
            new PoolUsage(
                field(usage, "used"),
                field(usage, "committed"),
                field(usage, "max"),
                field(peak, "used"),
                field(afterGc, "used")));
  }

  /** The pools of the current connection (empty while disconnected). */
  public List<Pool> pools() {
    return pools;
  }

  /** The latest usage of a pool, or null while disconnected. */
  public PoolUsage usage(Pool pool) {
    return readings.get(pool).current();
  }

  /** A usage, or null for a pool that reports none or something else. */
  private static CompositeData composite(Object value) {
    return value instanceof CompositeData data ? data : null;
  }

  private static double field(CompositeData data, String key) {
    // An invalid pool (e.g. after a collector change) reports a null usage.
    return data != null && data.containsKey(key) && data.get(key) instanceof Number n
        ? n.doubleValue()
        : Double.NaN;
  }

  @Override
  public void disconnected() {
    pools = List.of();
    readings.clearAll();
  }
}
