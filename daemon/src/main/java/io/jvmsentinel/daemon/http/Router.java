package io.jvmsentinel.daemon.http;

import io.jvmsentinel.collectors.text.SafeText;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.content.InputStreamContentSource;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request from the routes, after the method, the limits and the credential are checked.
 * Runs on a Jetty thread once the whole request head has arrived.
 */
final class Router extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(Router.class);

  private static final int STREAM_BUFFER_BYTES = 64 * 1024;

  private final Map<String, HttpEndpoint.Route> routes;
  private final HttpAccess access;

  Router(Map<String, HttpEndpoint.Route> routes, HttpAccess access) {
    this.routes = Map.copyOf(routes);
    this.access = access;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    HttpEndpoint.Response answer;
    try {
      answer = route(view(request));
    } catch (RuntimeException e) {
      // A request must never take the server down.
      log.warn("HTTP request failed: {}", e.getClass().getSimpleName());
      answer = HttpEndpoint.Response.text(500, "internal error\n");
    }
    response.setStatus(answer.status());
    SecurityHeaders.addTo(response.getHeaders());
    response.getHeaders().put("Content-Type", answer.contentType());
    answer.headers().forEach(response.getHeaders()::put);
    if (answer.streamed().isPresent()) {
      // A file of any size, in the pool's small buffers: never read into memory whole.
      HttpEndpoint.Streamed streamed = answer.streamed().get();
      response.getHeaders().put("Content-Length", streamed.length());
      ByteBufferPool.Sized buffers =
          new ByteBufferPool.Sized(
              request.getComponents().getByteBufferPool(), false, STREAM_BUFFER_BYTES);
      Content.copy(
          new InputStreamContentSource(streamed.in(), buffers),
          response,
          closing(streamed, callback));
      return true;
    }
    response.getHeaders().put("Content-Length", answer.body().length);
    // Jetty sends no body for HEAD by itself.
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
    return true;
  }

  /** The callback, after closing the stream whether the copy succeeded or failed. */
  private static Callback closing(HttpEndpoint.Streamed streamed, Callback callback) {
    return Callback.from(
        callback,
        () -> {
          try {
            streamed.in().close();
          } catch (java.io.IOException e) {
            log.debug("closing a streamed response: {}", e.toString());
          }
        });
  }

  private static HttpEndpoint.Request view(Request request) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (HttpField field : request.getHeaders()) {
      headers.merge(
          field.getName(),
          List.of(field.getValue()),
          (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
    }
    HttpURI uri = request.getHttpURI();
    String decoded = uri.getDecodedPath();
    return new HttpEndpoint.Request(
        request.getMethod(),
        decoded == null ? "" : decoded,
        uri.getPath(),
        uri.getQuery(),
        headers);
  }

  private HttpEndpoint.Route find(String path) {
    HttpEndpoint.Route exact = routes.get(path);
    if (exact != null) {
      return exact;
    }
    String best = null;
    for (String key : routes.keySet()) {
      if (key.endsWith("/")
          && path.startsWith(key)
          && (best == null || key.length() > best.length())) {
        best = key;
      }
    }
    return best == null ? null : routes.get(best);
  }

  private HttpEndpoint.Response route(HttpEndpoint.Request request) {
    String method = request.method();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return HttpEndpoint.Response.text(405, "read-only endpoint: use GET\n")
          .withHeader("Allow", "GET, HEAD");
    }
    Optional<HttpEndpoint.Response> rejected = RequestLimits.check(request);
    if (rejected.isPresent()) {
      return rejected.get();
    }
    Optional<HttpEndpoint.Response> denied = access.check(request);
    if (denied.isPresent()) {
      return denied.get();
    }
    HttpEndpoint.Route route = find(request.path());
    if (route == null) {
      // Never the path itself: the body must not carry what the client sent.
      return HttpEndpoint.Response.text(
          404, "not found; try /metrics, /health, /ready, /api/v1/targets\n");
    }
    try {
      return route.get(request);
    } catch (HttpEndpoint.NotFound e) {
      return HttpEndpoint.Response.text(404, e.getMessage() + "\n");
    } catch (java.io.IOException | RuntimeException e) {
      log.warn("HTTP {} failed", SafeText.of(request.path()), e);
      return HttpEndpoint.Response.text(
          500, "internal error: " + e.getClass().getSimpleName() + "\n");
    }
  }
}
