package io.jvmsentinel.daemon.export.otlp;

import io.jvmsentinel.collectors.catalog.Metric;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one table from our meters to the OpenTelemetry JVM semantic conventions (semconv {@code
 * runtime/jvm-metrics}): a meter listed here is pushed over OTLP under the convention's name, unit
 * and attributes; every other meter keeps its Micrometer name, tags and unit (the unit in UCUM, see
 * {@link WireConventions}). docs/opentelemetry.md is generated from this table
 * (OpenTelemetryDocTest).
 */
public final class OtelNames {
  private static final OtelName MEMORY_POOL =
      OtelName.of("", "By")
          .attribute("area", "jvm.memory.type")
          .value("area", "nonheap", "non_heap")
          .attribute("id", "jvm.memory.pool.name");

  private static final Map<Metric, OtelName> TABLE = buildTable();

  private static Map<Metric, OtelName> buildTable() {
    Map<Metric, OtelName> t = new EnumMap<>(Metric.class);
    t.put(Metric.JVM_MEMORY_USED, renamed(MEMORY_POOL, "jvm.memory.used"));
    t.put(Metric.JVM_MEMORY_COMMITTED, renamed(MEMORY_POOL, "jvm.memory.committed"));
    t.put(Metric.JVM_MEMORY_MAX, renamed(MEMORY_POOL, "jvm.memory.limit"));
    t.put(Metric.JVM_MEMORY_USED_AFTER_GC, renamed(MEMORY_POOL, "jvm.memory.used_after_last_gc"));
    // Not in the conventions: our name, with the same pool attributes as its neighbours.
    t.put(Metric.JVM_MEMORY_PEAK, renamed(MEMORY_POOL, "jvm.memory.peak"));
    t.put(
        Metric.JVM_BUFFER_COUNT,
        OtelName.of("jvm.buffer.count", "{buffer}").attribute("id", "jvm.buffer.pool.name"));
    t.put(
        Metric.JVM_BUFFER_MEMORY_USED,
        OtelName.of("jvm.buffer.memory.used", "By").attribute("id", "jvm.buffer.pool.name"));
    t.put(
        Metric.JVM_BUFFER_TOTAL_CAPACITY,
        OtelName.of("jvm.buffer.memory.limit", "By").attribute("id", "jvm.buffer.pool.name"));
    // By state, as the conventions count threads; their sum is jvm.threads.live, which keeps
    // its own name so that no two meters share one OTLP name.
    t.put(
        Metric.JVM_THREADS_STATES,
        OtelName.of("jvm.thread.count", "{thread}")
            .attribute("state", "jvm.thread.state")
            .value("state", "timed-waiting", "timed_waiting"));
    t.put(
        Metric.JVM_GC_PAUSE,
        OtelName.of("jvm.gc.duration", "s")
            .attribute("gc", "jvm.gc.name")
            .attribute("action", "jvm.gc.action")
            .attribute("cause", "jvm.gc.cause"));
    t.put(Metric.JVM_CLASSES_LOADED, OtelName.of("jvm.class.count", "{class}"));
    t.put(Metric.JVM_CLASSES_LOADS, OtelName.of("jvm.class.loaded", "{class}"));
    t.put(Metric.JVM_CLASSES_UNLOADED, OtelName.of("jvm.class.unloaded", "{class}"));
    t.put(Metric.PROCESS_CPU_TIME, OtelName.of("jvm.cpu.time", "s").scaledBy(1e-9));
    t.put(Metric.PROCESS_CPU_USAGE, OtelName.of("jvm.cpu.recent_utilization", "1"));
    t.put(Metric.SYSTEM_CPU_COUNT, OtelName.of("jvm.cpu.count", "{cpu}"));
    t.put(Metric.SYSTEM_CPU_USAGE, OtelName.of("jvm.system.cpu.utilization", "1"));
    t.put(Metric.SYSTEM_LOAD_AVERAGE_1M, OtelName.of("jvm.system.cpu.load_1m", "{run_queue_item}"));
    t.put(Metric.PROCESS_UPTIME, OtelName.of("process.uptime", "s"));
    return Collections.unmodifiableMap(t);
  }

  private static final Map<String, OtelName> BY_METER_NAME = byMeterName();

  // Micrometer's unit names to UCUM, which OTLP consumers expect.
  private static final Map<String, String> UCUM =
      Map.of(
          "seconds", "s",
          "milliseconds", "ms",
          "bytes", "By",
          "threads", "{thread}",
          "classes", "{class}",
          "percent", "%");

  // The daemon's own meters (jvm_sentinel_* in Prometheus): jvm.* is the semantic conventions'
  // reserved namespace for the JVM's own metrics, so over OTLP they are jvm_sentinel.*.
  static final String OWN_PREFIX = "jvm.sentinel.";
  static final String OWN_OTEL_PREFIX = "jvm_sentinel.";

  /**
   * The names the conventions define as UpDownCounters (a value that goes up and down, summed
   * across attributes): sent as non-monotonic sums ({@link WireConventions}).
   */
  static final java.util.Set<String> UP_DOWN_COUNTERS =
      java.util.Set.of(
          "jvm.memory.used",
          "jvm.memory.committed",
          "jvm.memory.limit",
          "jvm.memory.used_after_last_gc",
          "jvm.buffer.count",
          "jvm.buffer.memory.used",
          "jvm.buffer.memory.limit",
          "jvm.thread.count",
          "jvm.class.count",
          "jvm.cpu.count");

  private OtelNames() {}

  private static OtelName renamed(OtelName template, String name) {
    return new OtelName(
        name, template.unit(), template.attributes(), template.values(), template.scale());
  }

  private static Map<String, OtelName> byMeterName() {
    Map<String, OtelName> m = new HashMap<>();
    TABLE.forEach((metric, otel) -> m.put(metric.meterName(), otel));
    return m;
  }

  /** The entries of the table, in catalog order. */
  public static Map<Metric, OtelName> table() {
    return TABLE;
  }

  /** The convention entry of a meter name, if it has one. */
  static Optional<OtelName> of(String meterName) {
    return Optional.ofNullable(BY_METER_NAME.get(meterName));
  }

  /**
   * The OTLP identity of {@code id}: renamed per the table, else unchanged; without empty tags (a
   * target lacking a tag key other targets have), which OTLP, unlike Prometheus, would keep.
   */
  static Meter.Id translate(Meter.Id source) {
    Meter.Id id = withoutEmptyTags(source);
    Optional<OtelName> otel = of(id.getName());
    if (otel.isEmpty()) {
      return id.getName().startsWith(OWN_PREFIX)
          ? id.withName(OWN_OTEL_PREFIX + id.getName().substring(OWN_PREFIX.length()))
          : id;
    }
    OtelName n = otel.get();
    List<Tag> tags = new ArrayList<>();
    for (Tag tag : id.getTagsAsIterable()) {
      String value = n.values().getOrDefault(tag.getKey(), Map.of()).get(tag.getValue());
      tags.add(
          Tag.of(
              n.attributes().getOrDefault(tag.getKey(), tag.getKey()),
              value != null ? value : tag.getValue()));
    }
    return new Meter.Id(n.name(), Tags.of(tags), n.unit(), id.getDescription(), id.getType());
  }

  private static Meter.Id withoutEmptyTags(Meter.Id id) {
    List<Tag> present = new ArrayList<>();
    id.getTagsAsIterable()
        .forEach(
            tag -> {
              if (!tag.getValue().isEmpty()) {
                present.add(tag);
              }
            });
    return present.size() == id.getTags().size() ? id : id.replaceTags(present);
  }

  static String ucum(String unit) {
    return unit == null ? null : UCUM.getOrDefault(unit, unit);
  }
}
