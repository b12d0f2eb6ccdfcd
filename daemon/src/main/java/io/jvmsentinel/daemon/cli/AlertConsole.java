package io.jvmsentinel.daemon.cli;

import ch.qos.logback.classic.Level;
import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.notify.JsonLogNotifier;
import io.jvmsentinel.daemon.detection.AlertTransitionLog;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Prints alerts as they fire, are updated and resolve, with the evidence an on-call engineer reads
 * first: the demo's alert view. It prints what the sinks were told (the latest notification of each
 * alert), each once. Every line is cleaned ({@link SafeText}) as it is printed: the names in it are
 * the target's, and an escape sequence or a line break in one would rewrite the terminal.
 */
final class AlertConsole {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private final Supplier<List<AlertNotification>> recent;
  // The last notification printed per alert: status and time.
  private final Map<String, String> printed = new HashMap<>();

  /**
   * @param recent the latest notification of each recent alert, newest first
   */
  AlertConsole(Supplier<List<AlertNotification>> recent) {
    this.recent = recent;
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
    List<AlertNotification> oldestFirst = new ArrayList<>(recent.get());
    Collections.reverse(oldestFirst);
    for (AlertNotification n : oldestFirst) {
      String state = n.status() + "@" + n.at();
      String before = printed.put(n.dedupKey(), state);
      if (state.equals(before)) {
        continue;
      }
      switch (n.status()) {
        case FIRING -> print("ALERT " + n.severity(), n);
        // An update first seen here (the alert fired and was updated between two refreshes, also
        // after an earlier alert of the same key resolved) is news of the alert: shown as one.
        case UPDATED ->
            print(
                before == null || before.startsWith(AlertNotification.Status.RESOLVED + "@")
                    ? "ALERT " + n.severity()
                    : "UPDATED",
                n);
        case RESOLVED ->
            println("  " + clock(n) + " RESOLVED " + n.ruleId() + ": " + resolvedText(n));
      }
    }
  }

  /** When it happened, as the lab's lines and a watch tell it: HH:mm:ss UTC. */
  private static String clock(AlertNotification n) {
    return TIME.format(n.at());
  }

  private static String resolvedText(AlertNotification n) {
    String prefix = "RESOLVED: ";
    return n.summary().startsWith(prefix) ? n.summary().substring(prefix.length()) : n.summary();
  }

  private static void print(String label, AlertNotification n) {
    println("");
    println("  " + clock(n) + " " + label + " " + n.ruleId() + ": " + n.summary());
    println("    why:  " + n.explanation());
    println("    do:   " + n.action());
    Map<String, Object> evidence = n.evidence();
    if (evidence.get("topCreatorSites") instanceof List<?> sites && !sites.isEmpty()) {
      Map<?, ?> top = (Map<?, ?>) sites.get(0);
      println("    creator: " + top.get("site") + " (" + top.get("threadNames") + ")");
      if (top.get("stack") instanceof List<?> stack) {
        stack.stream().limit(6).forEach(frame -> println("      at " + frame));
      }
    }
    for (String key :
        List.of(
            "segments",
            "occupancyHistory",
            "mostRecompiledMethods",
            "mostDeoptimizedMethods",
            "pauseShareOfWallTime")) {
      Object value = evidence.get(key);
      // An empty list says nothing here (JDK 11 has no deoptimisation events to list).
      if (value != null && !(value instanceof Collection<?> none && none.isEmpty())) {
        println("    " + key + ": " + value);
      }
    }
    n.snapshot().ifPresent(snapshot -> println("    JFR evidence: " + snapshot));
    println("");
  }

  private static void println(String line) {
    System.out.println(SafeText.of(line));
  }
}
