package io.jvmsentinel.daemon.target;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.remote.JMXConnectionNotification;
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

  /**
   * A connector's notification listener that tells {@code lost} the type of a {@code
   * jmx.remote.connection.failed} or {@code closed} notice (it runs on the connector's thread).
   */
  static NotificationListener onLoss(Consumer<String> lost) {
    return (Notification notification, Object handback) -> {
      String type = notification.getType();
      if (JMXConnectionNotification.FAILED.equals(type)
          || JMXConnectionNotification.CLOSED.equals(type)) {
        lost.accept(type);
      }
    };
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
