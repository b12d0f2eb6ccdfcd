package io.jvmsentinel.daemon.export.datadog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.daemon.testing.Jdks;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanServer;
import org.junit.jupiter.api.Test;

/**
 * A JVM watched over JMX (this test's own, through the real pollers) is sent under every name
 * Datadog's Java agent uses, so Datadog's out-of-the-box JVM dashboard and monitors find their
 * metrics; the heap totals add up the heap pools.
 */
class DatadogAgentNamesTest {
  private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ByteBuffer direct = ByteBuffer.allocateDirect(4096);

  @Test
  void everyJvmMetricOfDatadogsJvmDashboardIsSentForAWatchedJvm() throws Exception {
    JsonNode fixture =
        new ObjectMapper(new YAMLFactory())
            .readTree(
                Jdks.repoRoot()
                    .resolve(
                        "daemon/src/test/resources/stock-dashboards/datadog-jvm-runtime-metrics.yml")
                    .toFile());
    Set<String> expected = new TreeSet<>();
    fixture.path("metrics").forEach(m -> expected.add(m.asText()));
    fixture.path("not_sent").fieldNames().forEachRemaining(expected::remove);
    assertThat(expected).hasSizeGreaterThan(20);

    Map<String, List<String[]>> sent = twoSteps();

    assertThat(sent.keySet()).containsAll(expected);
    assertThat(direct.capacity()).isPositive();
  }

  @Test
  void heapTotalsAddTheHeapPoolsOfTheTargetAndKeepOnlyItsTags() throws Exception {
    Map<String, List<String[]>> sent = twoSteps();
    double pools =
        registry.find("jvm.memory.used").tag("area", "heap").gauges().stream()
            .mapToDouble(g -> g.value())
            .sum();
    List<String[]> heap = sent.get("jvm.heap_memory");
    assertThat(heap).hasSize(2); // one per step
    assertThat(heap.get(0)).containsExactly("target:self", String.valueOf(pools > 0));
  }

  /** Two steps (collection counts need a baseline); name to [tags..., value] per datapoint. */
  private Map<String, List<String[]>> twoSteps() throws Exception {
    JmxPollers pollers = JmxPollers.create(Tags.of("target", "self"));
    for (JmxPoller poller : pollers.all()) {
      poller.bindTo(registry);
      poller.connected(platform);
      poller.poll(platform);
    }
    StepDeltas deltas = new StepDeltas();
    DatadogAgentNames names = new DatadogAgentNames(deltas);
    Map<String, List<String[]>> sent = new HashMap<>();
    for (int step = 0; step < 2; step++) {
      System.gc();
      pollers.gc().poll(platform);
      for (DatadogAgentNames.Aliased a : names.of(registry.getMeters())) {
        List<String> row = new ArrayList<>(List.of(a.tags()));
        row.add(String.valueOf(a.point().value() > 0));
        sent.computeIfAbsent(a.point().name(), n -> new ArrayList<>())
            .add(row.toArray(String[]::new));
      }
      deltas.endStep();
    }
    return sent;
  }
}
