package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.http.HttpEndpoint;

/**
 * {@code GET /} and {@code GET /targets/{target}}: the status page. One static HTML file; the page
 * reads the JSON API from the same origin and draws everything in the browser, so the daemon does
 * no rendering and the page needs no template (no server-side string ever meets target data).
 */
public final class StatusPageRoute implements HttpEndpoint.Route {
  public static final String TARGETS_PREFIX = "/targets/";
  private final byte[] html = PageAssets.html();

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    String path = request.path();
    // "/" is also the Router's fallback prefix: any other unknown path lands here.
    if (!path.equals("/") && !path.startsWith(TARGETS_PREFIX)) {
      throw new HttpEndpoint.NotFound(
          "not found; try /, /metrics, /health, /ready, /api/v1/targets");
    }
    return ContentSecurity.apply(new HttpEndpoint.Response(200, "text/html; charset=utf-8", html));
  }
}
