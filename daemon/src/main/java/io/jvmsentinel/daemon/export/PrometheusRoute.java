package io.jvmsentinel.daemon.export;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics}: Prometheus text format 0.0.4, or OpenMetrics when the scraper asks. */
@SuppressWarnings("deprecation") // the simpleclient registry is deprecated upstream; see pom
public final class PrometheusRoute implements HttpEndpoint.Route {
  private final PrometheusMeterRegistry registry;

  public PrometheusRoute(PrometheusMeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    String contentType = TextFormat.chooseContentType(request.header("Accept"));
    return new HttpEndpoint.Response(
        200, contentType, registry.scrape(contentType).getBytes(StandardCharsets.UTF_8));
  }
}
