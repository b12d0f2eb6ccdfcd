package io.jvmsentinel.daemon.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * A password that must not leak into logs, exception messages or {@code toString()} of the records
 * that hold it.
 *
 * <p>It holds a {@code String}, not a {@code char[]}: the JMX connector wants its credentials as
 * {@code String[]}, so a wipeable array would be copied into a String anyway.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  public static Secret of(String value) {
    return new Secret(Objects.requireNonNull(value, "value"));
  }

  /** The secret itself: pass it straight to the connector, never to a log or a message. */
  public String value() {
    return value;
  }

  @Override
  public String toString() {
    return "****";
  }

  @Override
  public boolean equals(Object o) {
    // Constant time, so equality checks do not become a timing oracle.
    return o instanceof Secret other
        && MessageDigest.isEqual(
            value.getBytes(StandardCharsets.UTF_8), other.value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int hashCode() {
    return 0; // a hash of the value would leak a little of it
  }
}
