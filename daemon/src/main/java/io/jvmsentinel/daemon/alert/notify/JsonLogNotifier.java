package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each notification as one JSON line to the logger {@code io.jvmsentinel.alerts}: the sink
 * that is always there, and the one a log pipeline can alert on when every other sink is down.
 */
public final class JsonLogNotifier implements Notifier {
  public static final String LOGGER = "io.jvmsentinel.alerts";

  private final Logger log;

  public JsonLogNotifier() {
    this(LoggerFactory.getLogger(LOGGER));
  }

  JsonLogNotifier(Logger log) {
    this.log = log;
  }

  @Override
  public String name() {
    return "log";
  }

  @Override
  public void send(AlertNotification notification) {
    log.info("{}", line(notification));
  }

  /** The JSON line, without a line break. */
  static String line(AlertNotification notification) {
    return NotificationJson.of(notification).toString();
  }
}
