package io.jvmsentinel.daemon.target;

import java.util.Map;
import javax.management.remote.JMXConnector;

/** A JMX user and password, handed to the connector and to nothing else (no toString). */
public final class Credentials {
  public static final Credentials NONE = new Credentials(null, null);

  private final String username;
  private final char[] password;

  public Credentials(String username, char[] password) {
    this.username = username;
    this.password = password == null ? null : password.clone();
  }

  /** Adds {@link JMXConnector#CREDENTIALS} to a connection environment, if there is a user. */
  void addTo(Map<String, Object> environment) {
    if (username != null) {
      environment.put(
          JMXConnector.CREDENTIALS,
          new String[] {username, password == null ? "" : new String(password)});
    }
  }

  @Override
  public String toString() {
    return username == null ? "no credentials" : "user " + username + " with a password";
  }
}
