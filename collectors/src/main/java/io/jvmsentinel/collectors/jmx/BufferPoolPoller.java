package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * Direct and mapped buffer pools (and {@code mapped - 'non-volatile memory'} on JDK 14+), under the
 * names Micrometer's JvmMemoryMetrics gives them, so stock JVM dashboards find them. Pools are
 * discovered once per connection; each poll is one read per pool. The target decides how many it
 * has: the JVM's own ({@link JvmPoolNames#BUFFER}) are always read, first, and other pools fill
 * what is left of {@value #MAX_POOLS} ({@link ObjectNames#ownFirst}); at most {@value #MAX_POOLS}
 * names other than the JVM's get series over the poller's life.
 */
public final class BufferPoolPoller implements JmxPoller {
  private static final String COUNT = "Count";
  private static final String USED = "MemoryUsed";
  private static final String CAPACITY = "TotalCapacity";

  static final int MAX_POOLS = 8;

  private final Tags tags;
  private final CardinalityCap poolIds = new CardinalityCap(MAX_POOLS);
  private KeyedReadings<String, Attributes> readings;
  private volatile List<ObjectName> pools = List.of();

  public BufferPoolPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "buffers";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    poolIds.bindTo(registry, tags, Metric.JVM_BUFFER_COUNT, "id");
    readings =
        new KeyedReadings<>(
            (id, reading) -> {
              Tags poolTags = tags.and("id", id);
              Metric.JVM_BUFFER_COUNT.gauge(
                  registry, poolTags, reading, r -> r.gauge(a -> a.number(COUNT)));
              Metric.JVM_BUFFER_MEMORY_USED.gauge(
                  registry, poolTags, reading, r -> r.gauge(a -> a.number(USED)));
              Metric.JVM_BUFFER_TOTAL_CAPACITY.gauge(
                  registry, poolTags, reading, r -> r.gauge(a -> a.number(CAPACITY)));
            });
  }

  @Override
  public void connected(MBeanServerConnection mbeans) throws IOException, JMException {
    pools =
        ObjectNames.ownFirst(
            mbeans, ObjectNames.BUFFER_POOLS, JvmPoolNames.BUFFER, MAX_POOLS, poolIds);
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    for (ObjectName pool : pools) {
      String id =
          JvmPoolNames.registeredAs(pool, JvmPoolNames.BUFFER)
              ? pool.getKeyProperty("name")
              : poolIds.value(pool.getKeyProperty("name"));
      if (!id.equals(CardinalityCap.OTHER)) {
        readings.get(id).update(Attributes.read(mbeans, pool, COUNT, USED, CAPACITY));
      }
    }
  }

  @Override
  public void disconnected() {
    pools = List.of();
    readings.clearAll();
  }
}
