package io.jvmsentinel.daemon.export.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.testing.OtlpReceiver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Each watched JVM goes out as a service of its own over OTLP: two replicas of one app are two
 * resources with their pod's {@code k8s.*} attributes, the daemon's own meters a third, under
 * {@code jvm_sentinel.*} (not the conventions' reserved {@code jvm.*}).
 */
class OtlpTargetResourcesTest {
  private static Tags replica(String pod) {
    return Tags.of(
        "target", "orders",
        "app", "orders",
        "namespace", "shop",
        "pod", pod,
        "container", "app",
        "node", "node-1",
        "pod_uid", "uid-" + pod);
  }

  @Test
  void eachTargetIsItsOwnResourceWithItsPodAndTheDaemonKeepsItsOwn() throws Exception {
    SimpleMeterRegistry source = new SimpleMeterRegistry();
    Gauge a =
        Metric.JVM_MEMORY_USED.gauge(
            source, replica("orders-a").and("area", "heap", "id", "G1 Eden Space"), 1, x -> 1024);
    Metric.JVM_MEMORY_USED.gauge(
        source, replica("orders-b").and("area", "heap", "id", "G1 Eden Space"), 1, x -> 2048);
    Counter skipped =
        Counter.builder("jvm.sentinel.targets.skipped").tag("reason", "cap").register(source);
    skipped.increment();

    try (OtlpReceiver receiver = OtlpReceiver.start();
        OtlpExport export =
            OtlpExport.start(OtlpExportTest.config(receiver.url(), Map.of()), source)) {
      assertThat(export.resources()).isEqualTo(3);
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> resources(receiver).keySet().containsAll(List.of("a", "b", "daemon")));

      Map<String, ResourceMetrics> byPod = resources(receiver);
      for (String pod : List.of("a", "b")) {
        ResourceMetrics resource = byPod.get(pod);
        assertThat(OtlpReceiver.attributes(resource.getResource().getAttributesList()))
            .containsEntry("service.name", "orders")
            .containsEntry("k8s.namespace.name", "shop")
            .containsEntry("k8s.pod.name", "orders-" + pod)
            .containsEntry("k8s.container.name", "app")
            .containsEntry("k8s.node.name", "node-1")
            .containsEntry("k8s.pod.uid", "uid-orders-" + pod);
        var memory = resource.getScopeMetrics(0).getMetrics(0);
        assertThat(memory.getName()).isEqualTo("jvm.memory.used");
        // The pod is the resource's, not repeated on every point.
        assertThat(OtlpReceiver.attributes(memory.getSum().getDataPoints(0).getAttributesList()))
            .containsOnlyKeys("target", "app", "jvm.memory.type", "jvm.memory.pool.name");
      }
      ResourceMetrics daemon = byPod.get("daemon");
      assertThat(OtlpReceiver.attributes(daemon.getResource().getAttributesList()))
          .containsEntry("service.name", "jvm-sentinel")
          .doesNotContainKey("k8s.pod.name");
      assertThat(daemon.getScopeMetrics(0).getMetricsList())
          .extracting(m -> m.getName())
          .containsExactly("jvm_sentinel.targets.skipped");

      // A target gone: its resource's registry is closed with its last meter.
      source.remove(a);
      assertThat(export.resources()).isEqualTo(2);
    }
  }

  /** The latest resource of each pod ("a", "b") and of the daemon, as received. */
  private static Map<String, ResourceMetrics> resources(OtlpReceiver receiver) {
    return receiver.received().stream()
        .flatMap(r -> r.request().getResourceMetricsList().stream())
        .filter(r -> r.getScopeMetricsCount() > 0)
        .collect(
            Collectors.toMap(
                r ->
                    Optional.ofNullable(
                            OtlpReceiver.attributes(r.getResource().getAttributesList())
                                .get("k8s.pod.name"))
                        .map(pod -> pod.substring("orders-".length()))
                        .orElse("daemon"),
                r -> r,
                (older, newer) -> newer));
  }
}
