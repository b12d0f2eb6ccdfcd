package io.jvmsentinel.daemon.export.otlp;

import io.micrometer.registry.otlp.OtlpMetricsSender;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;

/**
 * Writes every metric's unit in UCUM ({@code s}, {@code By}), as OTLP consumers expect, before the
 * request leaves. It has to happen on the wire: the registry stamps its own time unit name ({@code
 * seconds}) on timers after every meter filter has run.
 */
final class UcumUnits implements OtlpMetricsSender {
  private final OtlpMetricsSender next;

  UcumUnits(OtlpMetricsSender next) {
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
