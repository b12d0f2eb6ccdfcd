package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** Connects to a target's remote JMX agent (a {@code service:jmx:} URL), with credentials. */
public final class RemoteJmxConnector implements Connector {
  private final TimeLimitedConnect connects;
  private final JMXServiceURL url;
  private final Credentials credentials;
  private final Duration connectTimeout;
  private final Duration callTimeout;

  public RemoteJmxConnector(
      JMXServiceURL url, Credentials credentials, Duration connectTimeout, Duration callTimeout) {
    this.url = url;
    this.credentials = credentials;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
    this.connects = new TimeLimitedConnect("jmx-connect");
  }

  @Override
  public JMXConnector connect() throws IOException {
    Map<String, Object> environment = ClientEnvironment.of(callTimeout);
    credentials.addTo(environment);
    return connects.connect(
        () -> JMXConnectorFactory.connect(url, environment), connectTimeout, describe());
  }

  @Override
  public String describe() {
    return url.toString();
  }

  /** The JMX client settings every connection of the daemon uses. */
  static final class ClientEnvironment {
    private ClientEnvironment() {}

    static Map<String, Object> of(Duration callTimeout) {
      Map<String, Object> environment = new HashMap<>();
      // The notification fetcher long-polls the target; it must return well within the RMI
      // response timeout, or every idle fetch would look like a hung target.
      long fetchTimeout = Math.max(200, Math.min(1000, callTimeout.toMillis() / 2));
      environment.put("jmx.remote.x.notification.fetch.timeout", fetchTimeout);
      // Check the connection often, so a dead target is noticed even without notifications.
      environment.put(
          "jmx.remote.x.client.connection.check.period", Math.max(1000, callTimeout.toMillis()));
      return environment;
    }
  }
}
