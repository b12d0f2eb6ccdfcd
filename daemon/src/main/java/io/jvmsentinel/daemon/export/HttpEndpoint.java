package io.jvmsentinel.daemon.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.jvmsentinel.daemon.config.HttpAuth;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's HTTP server: {@code /metrics}, {@code /health}, {@code /ready} and the read-only
 * JSON API. Every handler reads in-memory state only, so a hung target never slows a scrape.
 */
public final class HttpEndpoint implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
  // Instants as ISO-8601 text: API readers are people and scripts, not epoch arithmetic.
  static final ObjectMapper JSON =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .build();

  /** A response: status, content type and body. */
  public record Response(int status, String contentType, byte[] body) {
    public static Response json(int status, Object value) {
      try {
        return new Response(status, "application/json", JSON.writeValueAsBytes(value));
      } catch (IOException e) {
        throw new IllegalStateException("cannot render JSON", e);
      }
    }

    public static Response text(int status, String text) {
      return new Response(
          status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** A read-only route: answers a GET for a path, given the request's headers. */
  public interface Route {
    Response get(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Plain HTTP without authentication, the default; see {@link #start(InetSocketAddress, Map,
   * Optional, HttpAccess)}.
   */
  public static HttpEndpoint start(InetSocketAddress address, Map<String, Route> routes)
      throws IOException {
    return start(
        address,
        routes,
        Optional.empty(),
        HttpAccess.of(
            HttpAuth.NONE, new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
  }

  /**
   * Binds the address and serves the given routes: a key is an exact path, or a prefix when it ends
   * with {@code /} (the longest matching prefix wins; the route reads the rest of the path).
   *
   * @param tls HTTPS with this context, or plain HTTP when empty
   * @param access the credential the routes other than the probes require
   */
  public static HttpEndpoint start(
      InetSocketAddress address,
      Map<String, Route> routes,
      Optional<SSLContext> tls,
      HttpAccess access)
      throws IOException {
    configureJdkServer();
    HttpServer server;
    if (tls.isPresent()) {
      HttpsServer https = HttpsServer.create(address, 64);
      https.setHttpsConfigurator(new HttpsConfigurator(tls.get()));
      server = https;
    } else {
      server = HttpServer.create(address, 64);
    }
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            4,
            runnable -> {
              Thread t = new Thread(runnable, "http-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", new Router(routes, access));
    server.start();
    return new HttpEndpoint(server, executor);
  }

  /**
   * A client that sends its request or reads its response very slowly (slowloris) would hold one of
   * the four handler threads forever: the JDK server has no time limit unless these are set. They
   * are process-wide, read once; only this server uses the JDK's HTTP server.
   */
  /**
   * Settings of the JDK's server implementation, read once when it is first used; a value the
   * operator set with {@code -D} wins.
   */
  private static void configureJdkServer() {
    // Slow or stalled clients must not hold a handler thread for ever.
    setIfAbsent("sun.net.httpserver.maxReqTime", "10");
    setIfAbsent("sun.net.httpserver.maxRspTime", "30");
    // The server writes a response's headers and body as two segments; with Nagle's algorithm on,
    // the body waits for the ACK of the headers, which a keep-alive client delays by up to 40 ms:
    // every /metrics scrape took 40+ ms (bench/run, footprint).
    setIfAbsent("sun.net.httpserver.nodelay", "true");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** Thrown by a route for a resource that does not exist (an unknown target, say). */
  public static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NotFound(String message) {
      super(message, null, false, false);
    }
  }

  private record Router(Map<String, Route> routes, HttpAccess access) implements HttpHandler {
    private Route find(String path) {
      Route exact = routes.get(path);
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

    @Override
    public void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        Response response = route(exchange);
        exchange.getResponseHeaders().set("Content-Type", response.contentType());
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(response.status(), head ? -1 : response.body().length);
        if (!head) {
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(response.body());
          }
        }
      } catch (IOException e) {
        log.debug("HTTP client went away: {}", e.toString());
      } catch (RuntimeException e) {
        // A request must never take the server down; the JDK then closes the connection.
        log.warn("HTTP request failed: {}", e.getClass().getSimpleName());
      }
    }

    private Response route(HttpExchange exchange) {
      String method = exchange.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        return Response.text(405, "read-only endpoint: use GET\n");
      }
      Optional<Response> rejected = RequestLimits.check(exchange);
      if (rejected.isPresent()) {
        return rejected.get();
      }
      String path = exchange.getRequestURI().getPath();
      Optional<Response> denied = access.check(exchange, path);
      if (denied.isPresent()) {
        return denied.get();
      }
      Route route = find(path);
      if (route == null) {
        return Response.text(404, "not found; try /metrics, /health, /ready, /api/v1/targets\n");
      }
      try {
        return route.get(exchange);
      } catch (NotFound e) {
        return Response.text(404, e.getMessage() + "\n");
      } catch (IOException | RuntimeException e) {
        log.warn("HTTP {} failed", exchange.getRequestURI().getPath(), e);
        return Response.text(500, "internal error: " + e.getClass().getSimpleName() + "\n");
      }
    }
  }
}
