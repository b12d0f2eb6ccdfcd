package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.AlertKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon log's line per alert transition ({@code ALERT <rule> firing|updated|resolved on
 * <target>}), under a logger of its own: a front end that shows the alerts itself (the demo's
 * terminal view) mutes it, or every transition would reach the terminal twice.
 */
public final class AlertTransitionLog {
  /** The logger the lines are written to. */
  public static final String LOGGER = AlertTransitionLog.class.getName();

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private AlertTransitionLog() {}

  static void firing(AlertKey alert, String summary) {
    log.warn(
        "ALERT {} firing on {}{}: {}", alert.ruleId(), alert.target(), alert.keySuffix(), summary);
  }

  static void updated(AlertKey alert, String summary) {
    log.warn(
        "ALERT {} updated on {}{}: {}", alert.ruleId(), alert.target(), alert.keySuffix(), summary);
  }

  /** The alert's snapshot was checked whole ({@code what} is its file), or why there is none. */
  static void snapshotSettled(AlertKey alert, String what) {
    log.info(
        "ALERT {} on {}{}: JFR snapshot {}",
        alert.ruleId(),
        alert.target(),
        alert.keySuffix(),
        what);
  }

  static void resolved(AlertKey alert) {
    log.info("ALERT {} resolved on {}{}", alert.ruleId(), alert.target(), alert.keySuffix());
  }

  /** Resolved without its rule having seen it clear, and why. */
  static void resolved(AlertKey alert, String why) {
    log.info(
        "ALERT {} resolved on {}{}: {}", alert.ruleId(), alert.target(), alert.keySuffix(), why);
  }

  static void continuedAfterRestart(AlertKey alert) {
    log.info(
        "ALERT {} still firing on {}{} after the daemon restart: continues, no new page",
        alert.ruleId(),
        alert.target(),
        alert.keySuffix());
  }
}
