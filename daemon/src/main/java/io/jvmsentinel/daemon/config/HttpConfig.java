package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The HTTP endpoint that serves {@code /metrics}, the probes and the API.
 *
 * @param listen where to listen; default {@code 0.0.0.0:9404}
 * @param tls the server key store for HTTPS; default none (plain HTTP)
 * @param auth the credential {@code /metrics} and {@code /api/} require; default none. The probes
 *     {@code /health} and {@code /ready} stay open: kubelet probes cannot send credentials.
 * @param maskArguments the operator's patterns of secrets in target JVM arguments, masked in the
 *     API beyond the built-in rules; default none
 * @param showProperties the operator's patterns of {@code -D} property names whose values the API
 *     shows (through the value rules) beside the built-in allow-list; every other {@code -D} value
 *     is masked; default none
 * @param openMetrics whether {@code /metrics} is served without the credential when {@code auth} is
 *     set (a scraper that cannot send one); default false: with {@code auth}, only the probes are
 *     open
 * @param externalUrl where people reach this endpoint (through an ingress, say), without a trailing
 *     slash: alert notifications then link to the alert's status page; default none
 */
public record HttpConfig(
    HostPort listen,
    Optional<StoreFile> tls,
    HttpAuth auth,
    List<Pattern> maskArguments,
    List<Pattern> showProperties,
    boolean openMetrics,
    Optional<URI> externalUrl) {
  public static final HostPort DEFAULT_LISTEN = new HostPort("0.0.0.0", 9404);
  public static final HttpConfig DEFAULT = new HttpConfig(DEFAULT_LISTEN);

  public HttpConfig {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(auth, "auth");
    maskArguments = List.copyOf(maskArguments);
    showProperties = List.copyOf(showProperties);
    Objects.requireNonNull(externalUrl, "externalUrl");
  }

  /** Plain HTTP without authentication, the compatible default. */
  public HttpConfig(HostPort listen) {
    this(listen, Optional.empty(), HttpAuth.NONE, List.of(), List.of(), false, Optional.empty());
  }
}
