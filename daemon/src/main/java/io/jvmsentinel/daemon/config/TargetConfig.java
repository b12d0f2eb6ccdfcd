package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One JVM to watch.
 *
 * @param name unique, {@code [a-zA-Z0-9_.-]+}; becomes the {@code target} tag of every series
 * @param address where the JVM is
 * @param username JMX user, if the target requires authentication
 * @param password JMX password, already read from its environment variable or file
 * @param pollInterval how often JMX attributes are polled; at least 1s
 * @param tags extra tags of this target's series; every target has the same keys
 * @param tls TLS to the target's JMX agent, with this target's own stores; empty for plain RMI
 */
public record TargetConfig(
    String name,
    TargetAddress address,
    Optional<String> username,
    Optional<Secret> password,
    Duration pollInterval,
    Map<String, String> tags,
    Optional<TargetTlsConfig> tls) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(10);
  public static final Duration MIN_POLL_INTERVAL = Duration.ofSeconds(1);

  public TargetConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(tls, "tls");
    // Keep the order of the file: it is the order an operator expects to see them in.
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
  }

  /** The same target under another name. */
  public TargetConfig withName(String newName) {
    return new TargetConfig(newName, address, username, password, pollInterval, tags, tls);
  }

  /** A target reached over plain RMI (no TLS). */
  public TargetConfig(
      String name,
      TargetAddress address,
      Optional<String> username,
      Optional<Secret> password,
      Duration pollInterval,
      Map<String, String> tags) {
    this(name, address, username, password, pollInterval, tags, Optional.empty());
  }
}
