package io.jvmsentinel.daemon.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.jvmsentinel.daemon.config.HttpAuth;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The daemon's HTTP server: {@code /metrics}, {@code /health}, {@code /ready} and the read-only
 * JSON API. Every route reads in-memory state only, so a hung target never slows a scrape.
 *
 * <p>Implementation notes. Jetty reads requests and runs TLS handshakes on its selector without
 * holding a thread per connection: a thread runs a route only once a whole request head has
 * arrived, so clients that trickle bytes cannot starve the probes (the JDK's server read requests
 * on its handler threads: six reconnecting slow clients held {@code /health} at 5-9 s). What a slow
 * client still holds is a connection, so those are bounded per client ({@link
 * ConnectionsPerClient}), in total, and in time ({@link RequestDeadline}).
 */
public final class HttpEndpoint implements AutoCloseable {
  /**
   * The API's mapper, made on the first JSON answer: a daemon only scraped for {@code /metrics}
   * need not load Jackson's databind (about 470 classes, docs/performance.md).
   */
  private static final class Json {
    // Instants as ISO-8601 text: API readers are people and scripts, not epoch arithmetic.
    static final ObjectMapper MAPPER =
        JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private Json() {}
  }

  /**
   * How much a client may hold: open connections per client address (beyond them new ones are
   * closed at once), and the window in which a connection must complete a request head.
   */
  record Limits(int connectionsPerClient, Duration requestWindow) {
    static final Limits DEFAULT = new Limits(16, Duration.ofSeconds(10));
  }

  // Past this many open connections the server stops accepting until one closes.
  static final int MAX_CONNECTIONS = 1024;
  // A connection that sends no bytes for this long is closed (JDK server: idleInterval, 30 s).
  static final long IDLE_TIMEOUT_MS = 30_000;
  // Routes answer from memory in milliseconds; a few threads serve many scrapers and probes.
  private static final int MAX_THREADS = 8;

  /**
   * A request as routes see it: method, path (decoded and raw), raw query, and headers by name
   * regardless of case, every value of each.
   */
  public record Request(
      String method,
      String path,
      String rawPath,
      String rawQuery,
      Map<String, List<String>> headers) {
    public Request {
      TreeMap<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      headers.forEach((name, values) -> byName.merge(name, List.copyOf(values), Request::both));
      headers = Collections.unmodifiableMap(byName);
    }

    private static List<String> both(List<String> a, List<String> b) {
      return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    /** The first value of a header, or null. */
    public String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }
  }

  /**
   * A response: status, content type, body and any extra headers; or, for a file of any size, a
   * stream the server copies to the client in small blocks and closes, instead of the body.
   */
  public record Response(
      int status,
      String contentType,
      byte[] body,
      Map<String, String> headers,
      Optional<Streamed> streamed) {
    public Response {
      headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
      Objects.requireNonNull(streamed, "streamed");
    }

    public Response(int status, String contentType, byte[] body, Map<String, String> headers) {
      this(status, contentType, body, headers, Optional.empty());
    }

    public Response(int status, String contentType, byte[] body) {
      this(status, contentType, body, Map.of());
    }

    /**
     * A 200 whose body is {@code length} bytes read from {@code in}, never held in memory whole.
     */
    public static Response streamed(String contentType, InputStream in, long length) {
      return new Response(
          200, contentType, new byte[0], Map.of(), Optional.of(new Streamed(in, length)));
    }

    public static Response json(int status, Object value) {
      try {
        byte[] body =
            PlainJson.writes(value) ? PlainJson.bytes(value) : Json.MAPPER.writeValueAsBytes(value);
        return new Response(status, "application/json", body);
      } catch (IOException e) {
        throw new IllegalStateException("cannot render JSON", e);
      }
    }

    public static Response text(int status, String text) {
      return new Response(
          status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** This response with one more header. */
    public Response withHeader(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Response(status, contentType, body, more, streamed);
    }
  }

  /** A body read from a stream as it is sent; the server closes the stream. */
  public record Streamed(InputStream in, long length) {
    public Streamed {
      Objects.requireNonNull(in, "in");
    }
  }

  /** A read-only route: answers a GET for a path. */
  public interface Route {
    Response get(Request request) throws IOException;
  }

  private final Server server;
  private final ServerConnector connector;
  private final ConnectionsPerClient perClient;

  private HttpEndpoint(Server server, ServerConnector connector, ConnectionsPerClient perClient) {
    this.server = server;
    this.connector = connector;
    this.perClient = perClient;
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
    return start(address, routes, tls, access, Limits.DEFAULT);
  }

  static HttpEndpoint start(
      InetSocketAddress address,
      Map<String, Route> routes,
      Optional<SSLContext> tls,
      HttpAccess access,
      Limits limits)
      throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2, 60_000);
    threads.setName("http");
    threads.setDaemon(true);
    // No idle threads parked in reserve: the routes are quick, and threads cost memory.
    threads.setReservedThreads(0);
    // Daemon threads, like the pool: an open endpoint must never keep the process alive.
    Server server =
        new Server(threads, new ScheduledExecutorScheduler("http-scheduler", true), null);
    server.setStopAtShutdown(false);
    server.setErrorHandler(new PlainErrors());

    ServerConnector connector = new ServerConnector(server, 1, 1, connectionFactories(tls, http()));
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(IDLE_TIMEOUT_MS);
    connector.setAcceptQueueSize(64);
    ConnectionsPerClient perClient = new ConnectionsPerClient(limits.connectionsPerClient());
    connector.addBean(perClient);
    connector.addBean(new RequestDeadline(connector.getScheduler(), limits.requestWindow()));
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
    server.setHandler(new Router(routes, access));
    try {
      server.start();
    } catch (IOException e) {
      stopQuietly(server);
      throw e;
    } catch (Exception e) {
      stopQuietly(server);
      throw new IOException("cannot start the HTTP endpoint on " + address + ": " + e, e);
    }
    return new HttpEndpoint(server, connector, perClient);
  }

  private static HttpConfiguration http() {
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    // Request line and headers together; larger heads get 431 before any route runs.
    config.setRequestHeaderSize(RequestLimits.MAX_HEADER_BYTES + RequestLimits.MAX_URI_LENGTH);
    return config;
  }

  private static ConnectionFactory[] connectionFactories(
      Optional<SSLContext> tls, HttpConfiguration config) {
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    if (tls.isEmpty()) {
      return new ConnectionFactory[] {http};
    }
    // Jetty otherwise answers 400 when the Host header is not a name of the certificate: a kubelet
    // probe or a Prometheus scrape by pod IP would fail. The key store is the operator's choice.
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false);
    secure.setSniRequired(false);
    config.addCustomizer(secure);
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setSslContext(tls.get());
    return new ConnectionFactory[] {
      new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()), http
    };
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception ignored) {
      // Already failing to start: the start error is the one to report.
    }
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** Open network connections from this client address. */
  int openConnections(InetAddress client) {
    return perClient.open(client);
  }

  @Override
  public void close() {
    stopQuietly(server);
  }

  /** Thrown by a route for a resource that does not exist (an unknown target, say). */
  public static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NotFound(String message) {
      super(message, null, false, false);
    }
  }
}
