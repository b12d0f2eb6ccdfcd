package io.jvmsentinel.daemon.config;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A host and a port as written by an operator: {@code host:port}, {@code :port} (any local address)
 * or {@code [ipv6]:port}.
 *
 * @param host a host name or IP literal without brackets; empty means "any local address"
 * @param port 0..65535; 0 asks the OS for an ephemeral port (useful in tests)
 */
public record HostPort(String host, int port) {
  private static final Pattern PORT = Pattern.compile("\\d{1,5}");
  private static final Pattern PLAIN_HOST = Pattern.compile("[^\\s\\[\\]/:@]*");

  public HostPort {
    Objects.requireNonNull(host, "host");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range 0..65535");
    }
  }

  /**
   * Parses {@code host:port}, {@code :port} or {@code [ipv6]:port}.
   *
   * @throws IllegalArgumentException with a message naming the text and the accepted forms
   */
  public static HostPort parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw cannotRead(text);
    }
    String host = text.substring(0, colon);
    String port = text.substring(colon + 1);
    if (host.startsWith("[") && host.endsWith("]") && host.length() > 2) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      // Without brackets "::1:9010" is ambiguous: is 9010 the port or part of the address?
      throw new IllegalArgumentException(
          "cannot read \""
              + text
              + "\" as host:port; write IPv6 addresses in brackets, e.g. [::1]:9010");
    } else if (!PLAIN_HOST.matcher(host).matches()) {
      throw cannotRead(text);
    }
    if (!PORT.matcher(port).matches()) {
      throw cannotRead(text);
    }
    int number = Integer.parseInt(port);
    if (number > 65535) {
      throw new IllegalArgumentException(
          "port " + number + " in \"" + text + "\" is out of range 0..65535");
    }
    return new HostPort(host, number);
  }

  /** True for {@code :port}: listen on every local address. */
  public boolean anyHost() {
    return host.isEmpty();
  }

  /** A socket address to bind or connect to; resolves the host name. */
  public InetSocketAddress toSocketAddress() {
    return anyHost() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
  }

  /** The form {@link #parse} reads back: IPv6 literals get their brackets again. */
  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  private static IllegalArgumentException cannotRead(String text) {
    return new IllegalArgumentException(
        "cannot read \"" + text + "\" as host:port; use e.g. localhost:9010, :9404 or [::1]:9010");
  }
}
