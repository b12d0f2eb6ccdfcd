package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.config.HttpAuth;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.StoreFile;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.tls.SslContexts;
import io.jvmsentinel.daemon.web.TargetReportRoutes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP endpoint as a client sees it: read-only, bounded requests, credentials, TLS. */
class HttpEndpointSecurityTest {
  private static final Map<String, HttpEndpoint.Route> ROUTES =
      Map.of(
          "/metrics",
          request -> HttpEndpoint.Response.text(200, "up 1\n"),
          "/health",
          request -> HttpEndpoint.Response.text(200, "UP\n"),
          "/ready",
          request -> HttpEndpoint.Response.text(200, "READY\n"),
          "/api/v1/targets",
          request -> HttpEndpoint.Response.text(200, "{}\n"),
          TargetReportRoutes.PREFIX,
          new TargetReportRoutes(java.util.List::of, name -> java.util.Optional.empty()));

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private HttpEndpoint endpoint;

  @AfterEach
  void close() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  private int start(HttpAuth auth) throws IOException {
    return start(auth, false);
  }

  private int start(HttpAuth auth, boolean openMetrics) throws IOException {
    endpoint =
        HttpEndpoint.start(
            new InetSocketAddress("127.0.0.1", 0),
            ROUTES,
            Optional.empty(),
            HttpAccess.of(auth, openMetrics, registry));
    return endpoint.port();
  }

  /** Sends raw bytes and returns the status line, or "" if the server closed without one. */
  private static String raw(int port, String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
        line.append((char) c);
      }
      return line.toString().trim();
    } catch (java.net.SocketException e) {
      return ""; // reset by the server: refused, which is fine
    }
  }

  /** Sends raw bytes and returns the whole response, head and body. */
  private static String whole(int port, String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String getWhole(int port, String path) throws IOException {
    return whole(port, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  }

  private static String get(int port, String path, String... headers) throws IOException {
    StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: x\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    return raw(port, request.append("Connection: close\r\n\r\n").toString());
  }

  private double failures(String reason) {
    return registry.get("jvm.sentinel.http.auth.failures").tag("reason", reason).counter().count();
  }

  @Nested
  class ReadOnlyAndBounded {
    @Test
    void onlyGetAndHeadAreAnswered() throws Exception {
      int port = start(HttpAuth.NONE);
      for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"}) {
        assertThat(
                raw(
                    port,
                    method
                        + " /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n"))
            .as(method)
            .isEqualTo("HTTP/1.1 405 Method Not Allowed");
      }
      assertThat(get(port, "/metrics")).isEqualTo("HTTP/1.1 200 OK");
      assertThat(raw(port, "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
          .isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void oversizedAndMalformedRequestsGet4xxAndTheServerKeepsServing() throws Exception {
      int port = start(HttpAuth.NONE);
      assertThat(get(port, "/metrics?" + "q".repeat(5000))).startsWith("HTTP/1.1 414");
      assertThat(get(port, "/metrics", "X-Big: " + "v".repeat(9000))).startsWith("HTTP/1.1 431");
      assertThat(get(port, "/metrics", "Content-Length: 5")).startsWith("HTTP/1.1 400");
      assertThat(get(port, "/metrics", "Transfer-Encoding: chunked")).startsWith("HTTP/1.1 400");
      for (String path :
          new String[] {
            "/api/../metrics", "/api/%2e%2e/metrics", "/metrics%00", "//metrics", "/a%2Fb"
          }) {
        // 400 from the endpoint; "//metrics" parses as an authority, so the JDK answers 404.
        assertThat(get(port, path)).as(path).startsWith("HTTP/1.1 4");
      }
      assertThat(get(port, "/api/../metrics")).startsWith("HTTP/1.1 400");
      // Garbage the JDK's parser refuses by itself: a 400 or a closed connection, never a crash.
      assertThat(raw(port, "NONSENSE\r\n\r\n"))
          .satisfiesAnyOf(
              s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 400"));
      assertThat(raw(port, "GET /metrics HTTP/1.1\r\n" + "X: y\r\n".repeat(300) + "\r\n"))
          .satisfiesAnyOf(
              s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 4"));
      assertThat(raw(port, "GET metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
          .satisfiesAnyOf(
              s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 4"));

      assertThat(get(port, "/metrics")).isEqualTo("HTTP/1.1 200 OK");
    }
  }

  @Nested
  class NothingEchoedNothingSniffed {
    @Test
    void notFoundNeverEchoesThePath() throws Exception {
      int port = start(HttpAuth.NONE);
      for (String path :
          new String[] {
            "/%3Cscript%3Ealert(1)%3C/script%3E",
            "/no-such-%E2%80%AEtxt.exe",
            "/x%0d%0aSet-Cookie:a",
            "/api/v1/targets/no-such-%3Cscript%3E/tls"
          }) {
        String response = getWhole(port, path);
        assertThat(response).as(path).startsWith("HTTP/1.1 4");
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(body)
            .as(path)
            .doesNotContain("script", "no-such", "\u202e", "Set-Cookie", "%3C", "%0d");
      }
    }

    @Test
    void controlCharactersInPathsAreRejectedEvenPercentEncoded() throws Exception {
      int port = start(HttpAuth.NONE);
      for (String path :
          new String[] {"/metrics%0a", "/metrics%09", "/met%0Drics", "/%7F", "/a%E2%80%AEb"}) {
        assertThat(get(port, path)).as(path).startsWith("HTTP/1.1 400");
      }
      assertThat(get(port, "/metrics")).isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void everyResponseSaysNoSniffAndNoStore() throws Exception {
      int port = start(HttpAuth.NONE);
      for (String request :
          new String[] {
            "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /metrics%0a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            // Refused by Jetty's parser before any route: its error page is ours too.
            "GET /a/%2e%2e/metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
          }) {
        String response = whole(port, request);
        assertThat(response)
            .as(request)
            .containsIgnoringCase("X-Content-Type-Options: nosniff")
            .containsIgnoringCase("Cache-Control: no-store")
            .doesNotContain("<html", "%2e", "jetty");
      }
    }
  }

  @Nested
  class ConnectionLimits {
    @Test
    void oneClientCannotHoldMoreThanItsShare() throws Exception {
      endpoint =
          HttpEndpoint.start(
              new InetSocketAddress("0.0.0.0", 0),
              ROUTES,
              Optional.empty(),
              HttpAccess.of(HttpAuth.NONE, registry),
              new HttpEndpoint.Limits(4, java.time.Duration.ofSeconds(30)));
      int port = endpoint.port();
      java.net.InetAddress greedy = java.net.InetAddress.getByName("127.0.2.1");
      java.util.List<Socket> held = new java.util.ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          held.add(connectFrom(greedy, port));
        }
        org.awaitility.Awaitility.await().until(() -> endpoint.openConnections(greedy) == 4);
        try (Socket fifth = connectFrom(greedy, port)) {
          fifth.setSoTimeout(5000);
          // Closed by the server at once: end of stream, or a reset.
          assertThat(readOrReset(fifth)).isEqualTo(-1);
        }
        // Other clients are served meanwhile, and the held connections still work.
        assertThat(get(port, "/health")).isEqualTo("HTTP/1.1 200 OK");
        Socket first = held.get(0);
        first
            .getOutputStream()
            .write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        first.setSoTimeout(5000);
        assertThat(new String(first.getInputStream().readNBytes(15), StandardCharsets.US_ASCII))
            .isEqualTo("HTTP/1.1 200 OK");
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
      // Once they are closed, the client may connect again.
      org.awaitility.Awaitility.await().until(() -> endpoint.openConnections(greedy) == 0);
      try (Socket again = connectFrom(greedy, port)) {
        again
            .getOutputStream()
            .write(
                "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        again.setSoTimeout(5000);
        assertThat(new String(again.getInputStream().readNBytes(15), StandardCharsets.US_ASCII))
            .isEqualTo("HTTP/1.1 200 OK");
      }
    }

    private static Socket connectFrom(java.net.InetAddress source, int port) throws IOException {
      Socket socket = new Socket();
      socket.bind(new InetSocketAddress(source, 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      return socket;
    }

    private static int readOrReset(Socket socket) throws IOException {
      try {
        return socket.getInputStream().read();
      } catch (java.net.SocketException e) {
        return -1;
      }
    }
  }

  @Nested
  class Credentials {
    private static final String BASIC_OK =
        "Authorization: Basic "
            + Base64.getEncoder().encodeToString("prom:s3cret-pw".getBytes(StandardCharsets.UTF_8));

    @Test
    void basicAuthProtectsMetricsAndApiButNotTheProbes() throws Exception {
      int port = start(new HttpAuth.Basic("prom", Secret.of("s3cret-pw")));

      assertThat(get(port, "/metrics")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/api/v1/targets")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/no-such-path")).as("no hint what exists").startsWith("HTTP/1.1 401");
      assertThat(failures("missing")).isEqualTo(3);
      String wrong =
          "Authorization: Basic "
              + Base64.getEncoder().encodeToString("prom:wrong".getBytes(StandardCharsets.UTF_8));
      assertThat(get(port, "/metrics", wrong)).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/metrics", "Authorization: Bearer s3cret-pw"))
          .startsWith("HTTP/1.1 401");
      assertThat(failures("invalid")).isEqualTo(2);

      assertThat(get(port, "/metrics", BASIC_OK)).isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(port, "/api/v1/targets", BASIC_OK)).isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(port, "/health")).isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(port, "/ready")).isEqualTo("HTTP/1.1 200 OK");
      assertThat(failures("missing") + failures("invalid")).isEqualTo(5);
    }

    @Test
    void metricsAreOpenOnlyWhenChosenAndTheApiSnapshotsAndPageNever() throws Exception {
      int port = start(new HttpAuth.Bearer(Secret.of("tok-1")), true);
      assertThat(get(port, "/metrics")).isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(port, "/api/v1/targets")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/api/v1/snapshots/a.jfr")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/api/v1/targets", "Authorization: Bearer tok-1"))
          .isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void unauthorizedNamesTheScheme() throws Exception {
      int port = start(new HttpAuth.Basic("prom", Secret.of("s3cret-pw")));
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(401);
      assertThat(response.headers().firstValue("WWW-Authenticate"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"jvm-sentinel\""));
      assertThat(response.body()).doesNotContain("s3cret-pw");
    }

    @Test
    void bearerToken() throws Exception {
      int port = start(new HttpAuth.Bearer(Secret.of("tok-123")));
      assertThat(get(port, "/metrics", "Authorization: Bearer tok-123"))
          .isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(port, "/metrics", "Authorization: Bearer tok-12")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/metrics", "Authorization: Bearer tok-1234"))
          .startsWith("HTTP/1.1 401");
      assertThat(get(port, "/metrics")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/health")).isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void theSchemeMatchesInAnyCaseTheCredentialExactly() throws Exception {
      int port = start(new HttpAuth.Bearer(Secret.of("tok-123")));
      for (String header :
          new String[] {
            "Authorization: bearer tok-123",
            "Authorization: BEARER tok-123",
            "Authorization: Bearer   tok-123"
          }) {
        assertThat(get(port, "/metrics", header)).as(header).isEqualTo("HTTP/1.1 200 OK");
      }
      assertThat(get(port, "/metrics", "Authorization: bearer TOK-123")).startsWith("HTTP/1.1 401");
      assertThat(get(port, "/metrics", "Authorization: Basic tok-123")).startsWith("HTTP/1.1 401");

      endpoint.close();
      int basicPort = start(new HttpAuth.Basic("prom", Secret.of("s3cret-pw")));
      String encoded =
          Base64.getEncoder().encodeToString("prom:s3cret-pw".getBytes(StandardCharsets.UTF_8));
      assertThat(get(basicPort, "/metrics", "Authorization: basic " + encoded))
          .isEqualTo("HTTP/1.1 200 OK");
      assertThat(get(basicPort, "/metrics", "Authorization: bAsIc " + encoded))
          .isEqualTo("HTTP/1.1 200 OK");
    }
  }

  @Nested
  class Tls {
    @TempDir Path dir;

    @Test
    void httpsWithTheConfiguredKeyStoreAndBasicAuth() throws Exception {
      TestCertificates pki = new TestCertificates(dir);
      TestCertificates.Identity server = pki.identity("sentinel-http", "ks-pw-1");
      Path trust = pki.trustStore("prometheus", "ts-pw-1", server);
      SSLContext serverContext =
          SslContexts.server(new StoreFile(server.keyStore(), Secret.of("ks-pw-1")));
      endpoint =
          HttpEndpoint.start(
              new InetSocketAddress("127.0.0.1", 0),
              ROUTES,
              Optional.of(serverContext),
              HttpAccess.of(new HttpAuth.Bearer(Secret.of("tok-9")), registry));
      SSLContext clientContext =
          SslContexts.client(new StoreFile(trust, Secret.of("ts-pw-1")), Optional.empty());
      HttpClient client =
          HttpClient.newBuilder()
              .sslContext(clientContext)
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      URI metrics = URI.create("https://localhost:" + endpoint.port() + "/metrics");

      HttpResponse<String> ok =
          client.send(
              HttpRequest.newBuilder(metrics).header("Authorization", "Bearer tok-9").build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.body()).isEqualTo("up 1\n");
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(401);
      // Plain HTTP to the TLS port gets no answer.
      assertThat(get(endpoint.port(), "/health")).doesNotStartWith("HTTP/1.1 200");
      // A client that does not trust the certificate cannot connect.
      assertThatThrownBy(
              () ->
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(metrics).build(),
                          HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    }
  }
}
