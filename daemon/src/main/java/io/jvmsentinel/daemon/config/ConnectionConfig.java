package io.jvmsentinel.daemon.config;

import java.time.Duration;

/**
 * How the daemon talks to every target. One section for all targets, not one per target, because
 * the JDK's RMI timeouts are system properties: they are process-wide.
 *
 * @param connectTimeout how long to wait for a JMX connection to open
 * @param callTimeout how long to wait for any single remote JMX call
 * @param reconnectInitialDelay the first wait after a connection is lost
 * @param reconnectMaxDelay the cap of the exponential backoff between reconnect attempts
 */
public record ConnectionConfig(
    Duration connectTimeout,
    Duration callTimeout,
    Duration reconnectInitialDelay,
    Duration reconnectMaxDelay) {
  public static final ConnectionConfig DEFAULT =
      new ConnectionConfig(
          Duration.ofSeconds(5),
          Duration.ofSeconds(5),
          Duration.ofMillis(500),
          Duration.ofSeconds(30));

  /** The {@code connection} section; absent keys keep their defaults. */
  static ConnectionConfig read(ConfigNode s) {
    ConnectionConfig d = DEFAULT;
    ConnectionConfig c =
        new ConnectionConfig(
            s.duration("connectTimeout", d.connectTimeout()),
            s.duration("callTimeout", d.callTimeout()),
            s.duration("reconnectInitialDelay", d.reconnectInitialDelay()),
            s.duration("reconnectMaxDelay", d.reconnectMaxDelay()));
    s.positive("connectTimeout", c.connectTimeout());
    s.positive("callTimeout", c.callTimeout());
    s.positive("reconnectInitialDelay", c.reconnectInitialDelay());
    s.positive("reconnectMaxDelay", c.reconnectMaxDelay());
    s.notLess(
        "reconnectMaxDelay",
        c.reconnectMaxDelay(),
        "reconnectInitialDelay",
        c.reconnectInitialDelay());
    return c;
  }
}
