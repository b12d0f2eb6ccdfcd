package io.jvmsentinel.daemon.export.datadog;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JVM metrics under the names Datadog's own Java agent sends them ({@code jvm.heap_memory},
 * {@code jvm.thread_count}, {@code jvm.gc.minor_collection_time}, ...), derived from the catalog's
 * meters, so Datadog's out-of-the-box JVM dashboard and its recommended monitors work for a watched
 * target. Sent beside the Micrometer names, over DogStatsD only: Prometheus keeps one name per
 * metric.
 *
 * <p>Pool and collector tags are folded the way the agent folds them: heap totals add the heap
 * pools of a target, and collectors are split into minor (young) and major ones by name. Collection
 * counts and times are counts of the step (times in milliseconds, as the agent's {@code
 * CollectionTime}); Datadog shows them per second.
 */
final class DatadogAgentNames {
  /** One datapoint under an agent name, with the tags it goes out with. */
  record Aliased(Datapoint point, String[] tags) {}

  private static final Map<String, String> SAME_VALUE =
      Map.of(
          "jvm.threads.live", "jvm.thread_count",
          "jvm.classes.loaded", "jvm.loaded_classes",
          "system.cpu.usage", "jvm.cpu_load.system",
          "process.cpu.usage", "jvm.cpu_load.process",
          "process.files.open", "jvm.os.open_file_descriptors");

  private static final Map<String, String> BUFFER_FIELDS =
      Map.of(
          "jvm.buffer.memory.used", "used",
          "jvm.buffer.count", "count",
          "jvm.buffer.total.capacity", "limit");

  private static final Map<String, String> HEAP_TOTALS =
      Map.of(
          "jvm.memory.used", "",
          "jvm.memory.committed", "_committed",
          "jvm.memory.max", "_max");

  // Young-generation collectors of every HotSpot GC (the agent's list, plus ZGC's minor cycles).
  private static final Set<String> MINOR_COLLECTORS =
      Set.of(
          "Copy",
          "PS Scavenge",
          "ParNew",
          "G1 Young Generation",
          "ZGC Minor Cycles",
          "ZGC Minor Pauses");

  private final StepDeltas deltas;

  DatadogAgentNames(StepDeltas deltas) {
    this.deltas = deltas;
  }

  /** The agent-named datapoints of one step. */
  List<Aliased> of(Iterable<Meter> meters) {
    List<Aliased> out = new ArrayList<>();
    Map<List<String>, double[]> heap = new LinkedHashMap<>();
    for (Meter meter : meters) {
      Meter.Id id = meter.getId();
      String name = id.getName();
      if (meter instanceof Gauge gauge) {
        double value = gauge.value();
        if (!Double.isFinite(value)) {
          continue;
        }
        String same = SAME_VALUE.get(name);
        if (same != null) {
          out.add(gauge(same, value, id));
        }
        String pool = id.getTag("id");
        if (BUFFER_FIELDS.containsKey(name) && pool != null && pool.matches("[a-z]+")) {
          out.add(gauge("jvm.buffer_pool." + pool + "." + BUFFER_FIELDS.get(name), value, id));
        }
        if (name.equals("jvm.memory.used") && pool != null && poolSizeName(pool) != null) {
          out.add(gauge(poolSizeName(pool), value, id, "area", "id"));
        }
        String total = HEAP_TOTALS.get(name);
        if (total != null && pool != null && (value >= 0 || !name.equals("jvm.memory.max"))) {
          String prefix =
              "heap".equals(id.getTag("area")) ? "jvm.heap_memory" : "jvm.non_heap_memory";
          List<String> key = new ArrayList<>(List.of(prefix + total));
          key.addAll(List.of(tags(id, "area", "id")));
          heap.computeIfAbsent(key, k -> new double[1])[0] += value;
        }
      } else if (meter instanceof FunctionCounter counter) {
        String gc = id.getTag("gc");
        if (gc != null
            && (name.equals("jvm.gc.collections") || name.equals("jvm.gc.collection.time"))) {
          String kind = MINOR_COLLECTORS.contains(gc) ? "minor" : "major";
          boolean time = name.equals("jvm.gc.collection.time");
          // jvm.gc.collection.time is in seconds; the agent sends CollectionTime in milliseconds.
          double cumulative = time ? counter.count() * 1000 : counter.count();
          double delta = deltas.delta(id, "agent", cumulative, false);
          if (Double.isFinite(delta)) {
            String alias = "jvm.gc." + kind + (time ? "_collection_time" : "_collection_count");
            out.add(new Aliased(Datapoint.count(alias, delta), DogStatsdNames.tags(id)));
          }
        }
      }
    }
    heap.forEach(
        (key, sum) ->
            out.add(
                new Aliased(
                    Datapoint.gauge(key.get(0), sum[0]),
                    key.subList(1, key.size()).toArray(String[]::new))));
    return out;
  }

  /** {@code jvm.gc.eden_size} and its kin, for the pools the agent names. */
  private static String poolSizeName(String pool) {
    if (pool.endsWith("Eden Space")) {
      return "jvm.gc.eden_size";
    }
    if (pool.endsWith("Survivor Space")) {
      return "jvm.gc.survivor_size";
    }
    if (pool.endsWith("Old Gen") || pool.endsWith("Tenured Gen")) {
      return "jvm.gc.old_gen_size";
    }
    return pool.equals("Metaspace") ? "jvm.gc.metaspace_size" : null;
  }

  private static Aliased gauge(String name, double value, Meter.Id id, String... dropTags) {
    return new Aliased(Datapoint.gauge(name, value), tags(id, dropTags));
  }

  /** The meter's tags without {@code dropTags}. */
  private static String[] tags(Meter.Id id, String... dropTags) {
    Set<String> drop = Set.of(dropTags);
    return id.getTags().stream()
        .filter(t -> !drop.contains(t.getKey()))
        .map(t -> DogStatsdNames.tag(t.getKey(), t.getValue()))
        .toArray(String[]::new);
  }
}
