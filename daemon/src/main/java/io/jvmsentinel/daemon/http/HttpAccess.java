package io.jvmsentinel.daemon.http;

import io.jvmsentinel.daemon.catalog.SentinelMetric;
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
 * Checks the credential of a request when {@code http.auth} is set: every path, the API, the status
 * page and the snapshots included. The probes {@code /health} and {@code /ready} stay open: kubelet
 * probes cannot send a credential, and without one they reveal only whether the daemon runs and how
 * many targets are down ({@link #credentialed}). {@code /metrics} stays open only when the operator
 * chooses so ({@code http.openMetrics}: a scraper that cannot send a credential). Comparisons take
 * the same time whatever the input.
 */
public final class HttpAccess {
  static final Set<String> OPEN_PATHS = Set.of("/health", "/ready");

  static final String METRICS = "/metrics";

  private final HttpAuth auth;
  private final boolean openMetrics;
  private final byte[] expected;
  private final Counter missing;
  private final Counter invalid;

  private HttpAccess(HttpAuth auth, boolean openMetrics, MeterRegistry registry) {
    this.auth = auth;
    this.openMetrics = openMetrics;
    this.expected = digest(expectedHeader(auth));
    this.missing =
        SentinelMetric.SENTINEL_HTTP_AUTH_FAILURES.counter(registry, Tags.of("reason", "missing"));
    this.invalid =
        SentinelMetric.SENTINEL_HTTP_AUTH_FAILURES.counter(registry, Tags.of("reason", "invalid"));
  }

  /** Access as configured; with {@link HttpAuth.None} every request passes and nothing counts. */
  public static HttpAccess of(HttpAuth auth, MeterRegistry registry) {
    return new HttpAccess(auth, false, registry);
  }

  /** Access as configured, with {@code /metrics} open when {@code openMetrics}. */
  public static HttpAccess of(HttpAuth auth, boolean openMetrics, MeterRegistry registry) {
    return new HttpAccess(auth, openMetrics, registry);
  }

  /** A 401 response if the request lacks the credential its path needs, else empty. */
  Optional<HttpEndpoint.Response> check(HttpEndpoint.Request request) {
    if (auth instanceof HttpAuth.None
        || OPEN_PATHS.contains(request.path())
        || (openMetrics && METRICS.equals(request.path()))) {
      return Optional.empty();
    }
    String given = request.header("Authorization");
    if (given == null || given.isBlank()) {
      missing.increment();
      return Optional.of(unauthorized());
    }
    if (!matches(given)) {
      invalid.increment();
      return Optional.of(unauthorized());
    }
    return Optional.empty();
  }

  /**
   * Whether the request carries the credential (always, without {@code http.auth}): an open probe
   * names the down targets, their addresses and errors only to a caller who may read the API.
   * Nothing is counted: probes send no credential by design.
   */
  public boolean credentialed(HttpEndpoint.Request request) {
    if (auth instanceof HttpAuth.None) {
      return true;
    }
    String given = request.header("Authorization");
    return given != null && !given.isBlank() && matches(given);
  }

  // Digests first: equal lengths, so neither the length nor the content leaks through timing.
  private boolean matches(String header) {
    return MessageDigest.isEqual(expected, digest(normalized(header)));
  }

  /**
   * The header with its scheme in one spelling: RFC 9110 section 11.1 makes the scheme
   * case-insensitive ({@code bearer}, {@code BASIC}), and one or more spaces may follow it. The
   * credential itself stays exact.
   */
  private static String normalized(String header) {
    String trimmed = header.trim();
    int space = trimmed.indexOf(' ');
    if (space < 0) {
      return trimmed;
    }
    String scheme = trimmed.substring(0, space);
    String credential = trimmed.substring(space).stripLeading();
    for (String known : new String[] {"Basic", "Bearer"}) {
      if (known.equalsIgnoreCase(scheme)) {
        return known + " " + credential;
      }
    }
    return trimmed;
  }

  private HttpEndpoint.Response unauthorized() {
    String scheme = auth instanceof HttpAuth.Basic ? "Basic" : "Bearer";
    return HttpEndpoint.Response.text(401, "authentication required\n")
        .withHeader("WWW-Authenticate", scheme + " realm=\"jvm-sentinel\", charset=\"UTF-8\"");
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
