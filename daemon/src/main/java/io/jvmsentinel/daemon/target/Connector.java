package io.jvmsentinel.daemon.target;

import java.io.IOException;
import javax.management.remote.JMXConnector;

/** Opens a new JMX connection to one target. Each call is a fresh connection. */
public interface Connector extends AutoCloseable {

  /** Connects, or fails with an exception that says why; never blocks past the connect timeout. */
  JMXConnector connect() throws IOException;

  /** Where this connects to, safe to log (no credentials). */
  String describe();

  /** Cleans up what connecting left in the target (once the target is no longer watched). */
  @Override
  default void close() {}
}
