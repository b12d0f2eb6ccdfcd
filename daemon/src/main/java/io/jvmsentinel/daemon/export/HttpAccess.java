package io.jvmsentinel.daemon.export;

import com.sun.net.httpserver.HttpExchange;
import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.config.HttpAuth;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * Checks the credential of a request when {@code http.auth} is set. The probes {@code /health} and
 * {@code /ready} stay open: kubelet probes cannot send a credential, and they reveal only whether
 * the daemon runs and which targets are down. Comparisons take the same time whatever the input.
 */
public final class HttpAccess {
  static final Set<String> OPEN_PATHS = Set.of("/health", "/ready");

  private final HttpAuth auth;
  private final byte[] expected;
  private final Counter missing;
  private final Counter invalid;

  private HttpAccess(HttpAuth auth, MeterRegistry registry) {
    this.auth = auth;
    this.expected = digest(expectedHeader(auth));
    this.missing =
        Metric.SENTINEL_HTTP_AUTH_FAILURES.counter(registry, Tags.of("reason", "missing"));
    this.invalid =
        Metric.SENTINEL_HTTP_AUTH_FAILURES.counter(registry, Tags.of("reason", "invalid"));
  }

  /** Access as configured; with {@link HttpAuth.None} every request passes and nothing counts. */
  public static HttpAccess of(HttpAuth auth, MeterRegistry registry) {
    return new HttpAccess(auth, registry);
  }

  /** A 401 response if the request lacks the credential this path needs, else empty. */
  Optional<HttpEndpoint.Response> check(HttpExchange exchange, String path) {
    if (auth instanceof HttpAuth.None || OPEN_PATHS.contains(path)) {
      return Optional.empty();
    }
    String given = exchange.getRequestHeaders().getFirst("Authorization");
    if (given == null || given.isBlank()) {
      missing.increment();
      return Optional.of(unauthorized(exchange));
    }
    // Digests first: equal lengths, so neither the length nor the content leaks through timing.
    if (!MessageDigest.isEqual(expected, digest(given.trim()))) {
      invalid.increment();
      return Optional.of(unauthorized(exchange));
    }
    return Optional.empty();
  }

  private HttpEndpoint.Response unauthorized(HttpExchange exchange) {
    String scheme = auth instanceof HttpAuth.Basic ? "Basic" : "Bearer";
    exchange
        .getResponseHeaders()
        .set("WWW-Authenticate", scheme + " realm=\"jvm-sentinel\", charset=\"UTF-8\"");
    return HttpEndpoint.Response.text(401, "authentication required\n");
  }

  /** The whole Authorization header a client must send. */
  private static String expectedHeader(HttpAuth auth) {
    if (auth instanceof HttpAuth.Basic basic) {
      String pair = basic.username() + ":" + basic.password().value();
      return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }
    if (auth instanceof HttpAuth.Bearer bearer) {
      return "Bearer " + bearer.token().value();
    }
    return "";
  }

  private static byte[] digest(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
