package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import java.io.IOException;

/**
 * One place alert notifications go to. {@link Delivery} calls it from the sink's own thread, one
 * notification at a time, and retries a failed attempt, so an implementation makes exactly one
 * attempt and reports failure by throwing.
 */
public interface Notifier {
  /** The sink's name in logs and in the {@code sink} tag, e.g. {@code slack}. */
  String name();

  /**
   * Delivers one notification, blocking until the receiver accepted it.
   *
   * @throws RejectedException when the receiver refused this notification for good (retrying the
   *     same request cannot succeed)
   * @throws IOException on any other failure, including a non-2xx response; it is retried
   */
  void send(AlertNotification notification) throws IOException;

  /**
   * True for a receiver that forgets a firing alert that is not sent again now and then
   * (Alertmanager): {@link Notifications} then re-submits still-firing alerts to it periodically.
   */
  default boolean resendsWhileFiring() {
    return false;
  }
}
