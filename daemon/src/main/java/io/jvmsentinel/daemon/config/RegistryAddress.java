package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.util.Optional;
import javax.management.remote.JMXServiceURL;

/**
 * Where a JMX agent's RMI registry is, read from {@code service:jmx:rmi:///jndi/rmi://H:P/NAME}:
 * the form of {@code -Dcom.sun.management.jmxremote.port} and of {@code host:port} targets.
 */
public record RegistryAddress(String host, int port, String name) {

  /** The registry of {@code url}, or empty for any other form of JMX URL. */
  public static Optional<RegistryAddress> of(JMXServiceURL url) {
    String path = url.getURLPath();
    if (!"rmi".equals(url.getProtocol()) || !path.startsWith("/jndi/rmi://")) {
      return Optional.empty();
    }
    try {
      URI registry = URI.create(path.substring("/jndi/".length()));
      String name = registry.getPath() == null ? "" : registry.getPath().replaceFirst("^/", "");
      if (registry.getHost() == null || name.isEmpty()) {
        return Optional.empty();
      }
      int port = registry.getPort() == -1 ? 1099 : registry.getPort();
      return Optional.of(new RegistryAddress(registry.getHost(), port, name));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
