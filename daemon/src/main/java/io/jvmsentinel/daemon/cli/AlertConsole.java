package io.jvmsentinel.daemon.cli;

import ch.qos.logback.classic.Level;
import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.notify.JsonLogNotifier;
import io.jvmsentinel.daemon.detection.AlertTransitionLog;
import io.jvmsentinel.daemon.detection.DetectionEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Prints alerts as they fire and resolve, with the evidence an on-call engineer reads first: the
 * demo's alert view. Compares the engine's firing alerts between calls.
 */
final class AlertConsole {
  private final DetectionEngine engine;
  private final Map<String, ActiveAlert> shown = new HashMap<>();

  AlertConsole(DetectionEngine engine) {
    this.engine = engine;
  }

  /**
   * Leaves the terminal's alert lines to this view: the daemon's log line per transition and the
   * JSON line per notification go to the same terminal (stderr), so each alert would show twice.
   */
  static void muteAlertLogLines() {
    for (String logger : List.of(AlertTransitionLog.LOGGER, JsonLogNotifier.LOGGER)) {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(logger)).setLevel(Level.OFF);
    }
  }

  void printChanges() {
    Map<String, ActiveAlert> firing = new HashMap<>();
    for (ActiveAlert alert : engine.active()) {
      if (alert.state() == ActiveAlert.State.FIRING) {
        firing.put(alert.ruleId() + "|" + alert.target() + "|" + alert.key(), alert);
      }
    }
    firing.forEach(
        (id, alert) -> {
          if (!shown.containsKey(id)) {
            print(alert);
          }
        });
    shown.forEach(
        (id, alert) -> {
          if (!firing.containsKey(id)) {
            System.out.println("  RESOLVED " + alert.ruleId() + ": " + alert.finding().summary());
          }
        });
    shown.clear();
    shown.putAll(firing);
  }

  private static void print(ActiveAlert alert) {
    System.out.println();
    System.out.println(
        "  ALERT " + alert.severity() + " " + alert.ruleId() + ": " + alert.finding().summary());
    System.out.println("    why:  " + alert.finding().explanation());
    System.out.println("    do:   " + alert.finding().action());
    Map<String, Object> evidence = alert.finding().evidence();
    if (evidence.get("topCreatorSites") instanceof List<?> sites && !sites.isEmpty()) {
      Map<?, ?> top = (Map<?, ?>) sites.get(0);
      System.out.println("    creator: " + top.get("site") + " (" + top.get("threadNames") + ")");
      if (top.get("stack") instanceof List<?> stack) {
        stack.stream().limit(6).forEach(frame -> System.out.println("      at " + frame));
      }
    }
    for (String key :
        List.of("segments", "occupancyHistory", "mostDeoptimizedMethods", "pauseShareOfWallTime")) {
      if (evidence.containsKey(key)) {
        System.out.println("    " + key + ": " + evidence.get(key));
      }
    }
    if (alert.snapshot() != null) {
      System.out.println("    JFR evidence: " + alert.snapshot());
    }
    System.out.println();
  }
}
