package io.jvmsentinel.daemon.target;

import java.util.Map;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import javax.management.remote.JMXConnector;
import javax.security.auth.Subject;

/**
 * A JMXConnector over a local MBean server: never fails, never sends notifications (subclasses may
 * override what they watch).
 */
class LocalJmxConnector implements JMXConnector {
  private final MBeanServer server;

  LocalJmxConnector(MBeanServer server) {
    this.server = server;
  }

  @Override
  public void connect() {}

  @Override
  public void connect(Map<String, ?> env) {}

  @Override
  public MBeanServerConnection getMBeanServerConnection() {
    return server;
  }

  @Override
  public MBeanServerConnection getMBeanServerConnection(Subject delegationSubject) {
    return server;
  }

  @Override
  public void close() {}

  @Override
  public void addConnectionNotificationListener(
      NotificationListener listener, NotificationFilter filter, Object handback) {}

  @Override
  public void removeConnectionNotificationListener(NotificationListener listener) {}

  @Override
  public void removeConnectionNotificationListener(
      NotificationListener l, NotificationFilter f, Object handback) {}

  @Override
  public String getConnectionId() {
    return "local";
  }
}
