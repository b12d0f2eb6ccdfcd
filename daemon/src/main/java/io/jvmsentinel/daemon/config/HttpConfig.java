package io.jvmsentinel.daemon.config;

import java.util.Objects;

/**
 * The HTTP endpoint that serves {@code /metrics}.
 *
 * @param listen where to listen; default {@code 0.0.0.0:9404}
 */
public record HttpConfig(HostPort listen) {
  public static final HostPort DEFAULT_LISTEN = new HostPort("0.0.0.0", 9404);
  public static final HttpConfig DEFAULT = new HttpConfig(DEFAULT_LISTEN);

  public HttpConfig {
    Objects.requireNonNull(listen, "listen");
  }
}
