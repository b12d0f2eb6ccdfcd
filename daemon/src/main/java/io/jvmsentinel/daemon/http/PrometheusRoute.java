package io.jvmsentinel.daemon.http;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics}: Prometheus text format 0.0.4, or OpenMetrics when the scraper asks; a large
 * body comes from a {@link ScrapeCache}.
 */
@SuppressWarnings("deprecation") // the simpleclient registry is deprecated upstream; see pom
public final class PrometheusRoute implements HttpEndpoint.Route {
  private final ScrapeCache cache;

  public PrometheusRoute(PrometheusMeterRegistry registry) {
    this.cache =
        new ScrapeCache(
            contentType -> registry.scrape(contentType).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    String contentType = TextFormat.chooseContentType(request.header("Accept"));
    return new HttpEndpoint.Response(200, contentType, cache.body(contentType));
  }
}
