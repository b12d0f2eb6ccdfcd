package io.jvmsentinel.daemon.export.otlp;

import io.micrometer.registry.otlp.OtlpMetricsSender;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;

/**
 * What the semantic conventions want and Micrometer's OTLP registry cannot say, written into each
 * request before it leaves: every unit in UCUM ({@code s}, {@code By}; the registry stamps its own
 * time unit name, {@code seconds}, on timers after every meter filter has run), and the values the
 * conventions define as UpDownCounters ({@link OtelNames#UP_DOWN_COUNTERS}: memory, threads,
 * classes, CPUs, buffers) as non-monotonic cumulative sums instead of the registry's gauges.
 */
final class WireConventions implements OtlpMetricsSender {
  private final OtlpMetricsSender next;

  WireConventions(OtlpMetricsSender next) {
    this.next = next;
  }

  @Override
  public void send(Request request) throws Exception {
    ExportMetricsServiceRequest.Builder body =
        ExportMetricsServiceRequest.parseFrom(request.getMetricsData()).toBuilder();
    for (ResourceMetrics.Builder resource : body.getResourceMetricsBuilderList()) {
      for (ScopeMetrics.Builder scope : resource.getScopeMetricsBuilderList()) {
        for (Metric.Builder metric : scope.getMetricsBuilderList()) {
          if (!metric.getUnit().isEmpty()) {
            metric.setUnit(OtelNames.ucum(metric.getUnit()));
          }
          if (metric.hasGauge() && OtelNames.UP_DOWN_COUNTERS.contains(metric.getName())) {
            Sum sum =
                Sum.newBuilder()
                    .setIsMonotonic(false)
                    .setAggregationTemporality(
                        AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)
                    .addAllDataPoints(metric.getGauge().getDataPointsList())
                    .build();
            metric.setSum(sum); // replaces the gauge: data is a oneof
          }
        }
      }
    }
    Request.Builder rewritten = Request.builder(body.build().toByteArray());
    if (request.getAddress() != null) {
      rewritten.address(request.getAddress());
    }
    next.send(rewritten.headers(request.getHeaders()).build());
  }
}
