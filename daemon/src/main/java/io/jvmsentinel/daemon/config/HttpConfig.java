package io.jvmsentinel.daemon.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The HTTP endpoint that serves {@code /metrics}, the probes and the API.
 *
 * @param listen where to listen; default {@code 0.0.0.0:9404}
 * @param tls the server key store for HTTPS; default none (plain HTTP)
 * @param auth the credential {@code /metrics} and {@code /api/} require; default none. The probes
 *     {@code /health} and {@code /ready} stay open: kubelet probes cannot send credentials.
 */
public record HttpConfig(HostPort listen, Optional<StoreFile> tls, HttpAuth auth) {
  public static final HostPort DEFAULT_LISTEN = new HostPort("0.0.0.0", 9404);
  public static final HttpConfig DEFAULT = new HttpConfig(DEFAULT_LISTEN);

  public HttpConfig {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(auth, "auth");
  }

  /** Plain HTTP without authentication, the compatible default. */
  public HttpConfig(HostPort listen) {
    this(listen, Optional.empty(), HttpAuth.NONE);
  }
}
