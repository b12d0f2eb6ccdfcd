package io.jvmsentinel.daemon.detection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon log's line per alert transition ({@code ALERT <rule> firing|resolved on <target>}),
 * under a logger of its own: a front end that shows the alerts itself (the demo's terminal view)
 * mutes it, or every transition would reach the terminal twice.
 */
public final class AlertTransitionLog {
  /** The logger the lines are written to. */
  public static final String LOGGER = AlertTransitionLog.class.getName();

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private AlertTransitionLog() {}

  static void firing(String rule, String target, String key, String summary) {
    log.warn("ALERT {} firing on {}{}: {}", rule, target, keySuffix(key), summary);
  }

  static void resolved(String rule, String target, String key) {
    log.info("ALERT {} resolved on {}{}", rule, target, keySuffix(key));
  }

  /** Resolved without its rule having seen it clear, and why. */
  static void resolved(String rule, String target, String key, String why) {
    log.info("ALERT {} resolved on {}{}: {}", rule, target, keySuffix(key), why);
  }

  static void continuedAfterRestart(String rule, String target, String key) {
    log.info(
        "ALERT {} still firing on {}{} after the daemon restart: continues, no new page",
        rule,
        target,
        keySuffix(key));
  }

  private static String keySuffix(String key) {
    return key.isEmpty() ? "" : " [" + key + "]";
  }
}
