package io.jvmsentinel.daemon.config;

import java.net.MalformedURLException;
import java.util.Objects;
import javax.management.remote.JMXServiceURL;

/**
 * A remote JVM reached over JMX.
 *
 * @param serviceUrl a valid {@code service:jmx:} URL
 */
public record JmxAddress(String serviceUrl) implements TargetAddress {
  private static final String SERVICE_PREFIX = "service:jmx:";

  public JmxAddress {
    Objects.requireNonNull(serviceUrl, "serviceUrl");
    toServiceUrl(serviceUrl); // fail at construction, not at the first connect
  }

  /**
   * Reads {@code host:port} (the standard RMI connector of {@code -Dcom.sun.management.jmxremote})
   * or a full {@code service:jmx:} URL, kept as written.
   *
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static JmxAddress parse(String text) {
    if (text.startsWith(SERVICE_PREFIX)) {
      return new JmxAddress(text);
    }
    HostPort hostPort;
    try {
      hostPort = HostPort.parse(text);
    } catch (IllegalArgumentException e) {
      throw cannotRead(text);
    }
    if (hostPort.anyHost() || hostPort.port() == 0) {
      throw cannotRead(text);
    }
    return new JmxAddress("service:jmx:rmi:///jndi/rmi://" + hostPort + "/jmxrmi");
  }

  /** The URL for {@code JMXConnectorFactory.connect}. */
  public JMXServiceURL toJmxServiceUrl() {
    return toServiceUrl(serviceUrl);
  }

  private static JMXServiceURL toServiceUrl(String url) {
    try {
      return new JMXServiceURL(url);
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(
          "cannot read \"" + url + "\" as a JMX service URL: " + e.getMessage(), e);
    }
  }

  private static IllegalArgumentException cannotRead(String text) {
    return new IllegalArgumentException(
        "cannot read \""
            + text
            + "\" as a JMX address; use HOST:PORT (port 1..65535) or a service:jmx: URL");
  }
}
