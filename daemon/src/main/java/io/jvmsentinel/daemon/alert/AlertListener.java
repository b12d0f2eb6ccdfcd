package io.jvmsentinel.daemon.alert;

/** Receives alerts as they fire and resolve; must not block (delivery queues its own work). */
@FunctionalInterface
public interface AlertListener {
  void notify(AlertNotification notification);

  /**
   * An alert taken back from the state file after a daemon restart still fires: no new page, but
   * sinks that forget firing alerts unless reminded (Alertmanager) must learn of it again.
   */
  default void continued(AlertNotification notification) {}

  /** This listener, then {@code next}, for every notification. */
  default AlertListener andThen(AlertListener next) {
    AlertListener first = this;
    return new AlertListener() {
      @Override
      public void notify(AlertNotification notification) {
        first.notify(notification);
        next.notify(notification);
      }

      @Override
      public void continued(AlertNotification notification) {
        first.continued(notification);
        next.continued(notification);
      }
    };
  }
}
