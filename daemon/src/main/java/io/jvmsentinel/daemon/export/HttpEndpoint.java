package io.jvmsentinel.daemon.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
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
   * Binds the address and serves the given routes: a key is an exact path, or a prefix when it ends
   * with {@code /} (the longest matching prefix wins; the route reads the rest of the path).
   */
  public static HttpEndpoint start(InetSocketAddress address, java.util.Map<String, Route> routes)
      throws IOException {
    // The JDK server writes the headers and then the body of a response as two segments; with
    // Nagle's algorithm on, the body waits for the ACK of the headers, which a keep-alive client
    // delays by up to 40 ms: every /metrics scrape took 40+ ms (bench/run, footprint). The JDK
    // reads this property once, when its server implementation is first used.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    HttpServer server = HttpServer.create(address, 64);
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
    server.createContext("/", new Router(routes));
    server.start();
    return new HttpEndpoint(server, executor);
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

  private record Router(java.util.Map<String, Route> routes) implements HttpHandler {
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
      }
    }

    private Response route(HttpExchange exchange) {
      String method = exchange.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        return Response.text(405, "read-only endpoint: use GET\n");
      }
      Route route = find(exchange.getRequestURI().getPath());
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
