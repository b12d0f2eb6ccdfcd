package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * Direct and mapped buffer pools (and {@code mapped - 'non-volatile memory'} on JDK 14+), under the
 * names Micrometer's JvmMemoryMetrics gives them, so stock JVM dashboards find them. Pools are
 * discovered once per connection; each poll is one read per pool.
 */
public final class BufferPoolPoller implements JmxPoller {
  private static final String COUNT = "Count";
  private static final String USED = "MemoryUsed";
  private static final String CAPACITY = "TotalCapacity";

  private final Tags tags;
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
    pools = List.copyOf(new ArrayList<>(mbeans.queryNames(ObjectNames.BUFFER_POOLS, null)));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    for (ObjectName pool : pools) {
      readings
          .get(pool.getKeyProperty("name"))
          .update(Attributes.read(mbeans, pool, COUNT, USED, CAPACITY));
    }
  }

  @Override
  public void disconnected() {
    pools = List.of();
    readings.clearAll();
  }
}
