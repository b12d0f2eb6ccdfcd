package io.jvmsentinel.daemon.alert;

/** Receives alerts as they fire and resolve; must not block (delivery queues its own work). */
@FunctionalInterface
public interface AlertListener {
  void notify(AlertNotification notification);
}
