package io.jvmsentinel.daemon.export.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.config.OtlpConfig;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.testing.OtlpReceiver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The OTLP export end to end over HTTP: catalog meters in the daemon's registry arrive at a
 * receiver that decodes them with the official OTLP protobuf classes, under the OpenTelemetry
 * names, attributes and units of {@link OtelNames}, with headers and resource attributes.
 */
class OtlpExportTest {
  static final Tags TARGET = Tags.of("target", "orders");

  static OtlpConfig config(String url, Map<String, Secret> headers) {
    return new OtlpConfig(
        true,
        URI.create(url),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1),
        OtlpConfig.Temporality.CUMULATIVE,
        headers,
        Map.of("deployment.environment.name", "test"));
  }

  @Test
  void pushesCatalogMetersUnderOpenTelemetryNamesWithHeadersAndResource() throws Exception {
    SimpleMeterRegistry source = new SimpleMeterRegistry();
    AtomicLong cpuNanos = new AtomicLong(2_500_000_000L);
    Metric.JVM_MEMORY_USED.gauge(
        source, TARGET.and("area", "nonheap", "id", "CodeHeap 'profiled nmethods'"), 1, x -> 4096);
    Metric.JVM_MEMORY_USED.gauge(
        source, TARGET.and("area", "heap", "id", "G1 Eden Space"), 1, x -> 8192);
    Metric.PROCESS_CPU_TIME.functionCounter(source, TARGET, cpuNanos, AtomicLong::doubleValue);
    var pause =
        Metric.JVM_GC_PAUSE.timer(
            source,
            TARGET.and(
                "gc",
                "G1 Young Generation",
                "action",
                "end of minor GC",
                "cause",
                "G1 Evacuation Pause"));
    pause.record(Duration.ofMillis(20));
    pause.record(Duration.ofMillis(30));
    Metric.JVM_CODECACHE_FULL.counter(source, TARGET.and("segment", "CodeCache")).increment(3);

    try (OtlpReceiver receiver = OtlpReceiver.start();
        OtlpExport export =
            OtlpExport.start(
                config(receiver.url(), Map.of("Authorization", Secret.of("Bearer t0ken"))),
                source)) {
      assertThat(export.mirrored()).isEqualTo(5);
      // Registered after the export started: the mirror follows the registry.
      Counter sites =
          Metric.JVM_THREADS_STARTED_BY_SITE.counter(source, TARGET.and("site", "Foo.bar"));
      sites.increment(7);

      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> receiver.latestNames().contains("jvm.threads.started.by.site"));
      assertThat(receiver.rejected()).isEmpty();

      var request = receiver.received().get(receiver.received().size() - 1);
      assertThat(request.headers()).containsEntry("authorization", "Bearer t0ken");
      assertThat(
              OtlpReceiver.attributes(
                  request.request().getResourceMetrics(0).getResource().getAttributesList()))
          // The target's own resource: a service of its own, named after it (no app tag here).
          .containsEntry("service.name", "orders")
          .containsEntry("deployment.environment.name", "test");

      var memory = receiver.latest("jvm.memory.used").orElseThrow();
      assertThat(memory.getUnit()).isEqualTo("By");
      // An UpDownCounter in the conventions: a non-monotonic cumulative sum, not a gauge.
      assertThat(memory.hasGauge()).isFalse();
      assertThat(memory.getSum().getIsMonotonic()).isFalse();
      assertThat(memory.getSum().getAggregationTemporality())
          .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
      assertThat(memory.getSum().getDataPointsList())
          .extracting(
              p -> OtlpReceiver.attributes(p.getAttributesList()), NumberDataPoint::getAsDouble)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(
                  Map.of(
                      "target", "orders",
                      "jvm.memory.type", "non_heap",
                      "jvm.memory.pool.name", "CodeHeap 'profiled nmethods'"),
                  4096.0),
              org.assertj.core.groups.Tuple.tuple(
                  Map.of(
                      "target", "orders",
                      "jvm.memory.type", "heap",
                      "jvm.memory.pool.name", "G1 Eden Space"),
                  8192.0));

      var cpu = receiver.latest("jvm.cpu.time").orElseThrow();
      assertThat(cpu.getUnit()).isEqualTo("s");
      assertThat(cpu.getSum().getIsMonotonic()).isTrue();
      assertThat(cpu.getSum().getAggregationTemporality())
          .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
      assertThat(cpu.getSum().getDataPoints(0).getAsDouble()).isEqualTo(2.5);

      var gc = receiver.latest("jvm.gc.duration").orElseThrow();
      assertThat(gc.getUnit()).isEqualTo("s");
      HistogramDataPoint point = gc.getHistogram().getDataPoints(0);
      assertThat(point.getCount()).isEqualTo(2);
      assertThat(point.getSum()).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
      assertThat(OtlpReceiver.attributes(point.getAttributesList()))
          .containsEntry("jvm.gc.name", "G1 Young Generation")
          .containsEntry("jvm.gc.action", "end of minor GC")
          .containsEntry("jvm.gc.cause", "G1 Evacuation Pause");

      // Not in the conventions: our name and tags.
      var full = receiver.latest("jvm.codecache.full").orElseThrow();
      assertThat(full.getSum().getDataPoints(0).getAsDouble()).isEqualTo(3.0);
      assertThat(OtlpReceiver.attributes(full.getSum().getDataPoints(0).getAttributesList()))
          .containsEntry("segment", "CodeCache");
      assertThat(receiver.latest("jvm.threads.started.by.site").orElseThrow().getUnit())
          .isEqualTo("{thread}");
      assertThat(receiver.latestNames())
          .doesNotContain("jvm.gc.pause", "process.cpu.time")
          .doesNotHaveDuplicates();

      // A meter removed from the registry stops being pushed.
      source.remove(sites);
      int before = receiver.received().size();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  receiver.received().size() > before + 1
                      && !receiver.latestNames().contains("jvm.threads.started.by.site"));
    }
  }

  @Test
  void anUnreachableEndpointCostsNothingButALogLine() throws Exception {
    SimpleMeterRegistry source = new SimpleMeterRegistry();
    Metric.JVM_THREADS_LIVE.gauge(source, TARGET, 1, x -> 12);
    // A port nobody listens on: the connection is refused at once, and the export goes on.
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (OtlpExport export =
        OtlpExport.start(
            config("http://127.0.0.1:" + closedPort + "/v1/metrics", Map.of()), source)) {
      assertThat(export.mirrored()).isEqualTo(1);
    }
  }

  @Test
  void aDisabledExportMirrorsNothing() {
    SimpleMeterRegistry source = new SimpleMeterRegistry();
    Metric.JVM_THREADS_LIVE.gauge(source, TARGET, 1, x -> 12);
    try (OtlpExport export = OtlpExport.start(OtlpConfig.DISABLED, source)) {
      assertThat(export.mirrored()).isZero();
    }
  }
}
