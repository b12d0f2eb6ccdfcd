package io.jvmsentinel.daemon.target;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners told when a target's connection comes up and goes away; a listener that fails is
 * logged and the others are still told. Called on the session thread.
 */
final class ConnectionListeners {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  private final String name;
  private final Set<TargetSession.ConnectionListener> listeners = ConcurrentHashMap.newKeySet();

  ConnectionListeners(String name) {
    this.name = name;
  }

  void add(TargetSession.ConnectionListener listener) {
    listeners.add(listener);
  }

  void connected(JMXConnector connector, MBeanServerConnection mbeans) {
    for (TargetSession.ConnectionListener listener : listeners) {
      try {
        listener.connected(connector, mbeans);
      } catch (RuntimeException e) {
        failed(e);
      }
    }
  }

  void disconnected() {
    for (TargetSession.ConnectionListener listener : listeners) {
      try {
        listener.disconnected();
      } catch (RuntimeException e) {
        failed(e);
      }
    }
  }

  private void failed(RuntimeException e) {
    log.warn("target {}: connection listener failed: {}", name, ConnectFailure.describe(e), e);
  }
}
