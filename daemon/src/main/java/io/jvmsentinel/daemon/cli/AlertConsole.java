package io.jvmsentinel.daemon.cli;

import ch.qos.logback.classic.Level;
import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.notify.JsonLogNotifier;
import io.jvmsentinel.daemon.detection.AlertTransitionLog;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.LoggerFactory;

/**
 * Prints alerts as they fire, are updated and resolve, with the evidence an on-call engineer reads
 * first: the demo's alert view. It is told every notification the sinks are, and prints each at the
 * next refresh, in order: a fire and resolve between two refreshes shows as both. Every line is
 * cleaned ({@link SafeText}) as it is printed: the names in it are the target's, and an escape
 * sequence or a line break in one would rewrite the terminal.
 */
final class AlertConsole implements AlertListener {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
  private final Queue<AlertNotification> unprinted = new ConcurrentLinkedQueue<>();

  /**
   * Leaves the terminal's alert lines to this view: the daemon's log line per transition and the
   * JSON line per notification go to the same terminal (stderr), so each alert would show twice.
   */
  static void muteAlertLogLines() {
    for (String logger : List.of(AlertTransitionLog.LOGGER, JsonLogNotifier.LOGGER)) {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(logger)).setLevel(Level.OFF);
    }
  }

  // Called by detection: printing waits for the refresh, so the view's lines stay whole.
  @Override
  public void notify(AlertNotification notification) {
    unprinted.add(notification);
  }

  void printChanges() {
    for (AlertNotification n = unprinted.poll(); n != null; n = unprinted.poll()) {
      switch (n.status()) {
        case FIRING -> print("ALERT " + n.severity(), n);
        case UPDATED -> print("UPDATED", n);
        case RESOLVED -> println("  " + clock(n) + " RESOLVED " + n.ruleId() + ": " + n.summary());
      }
    }
  }

  /** When it happened, as the lab's lines and a watch tell it: HH:mm:ss UTC. */
  private static String clock(AlertNotification n) {
    return TIME.format(n.at());
  }

  private static void print(String label, AlertNotification n) {
    println("");
    println("  " + clock(n) + " " + label + " " + n.ruleId() + ": " + n.summary());
    println("    why:  " + n.explanation());
    println("    do:   " + n.action());
    Map<String, Object> evidence = n.evidence();
    if (evidence.get("topCreatorSites") instanceof List<?> sites && !sites.isEmpty()) {
      Map<?, ?> top = (Map<?, ?>) sites.get(0);
      printStack("creator: " + top.get("site") + " (" + top.get("threadNames") + ")", top);
    }
    // A lock contention's action points to the holder's stack and the blocked sites.
    if (evidence.get("holder") instanceof Map<?, ?> holder) {
      printStack("holder: " + holder.get("thread") + " (" + holder.get("state") + ")", holder);
    }
    if (evidence.get("blockedSites") instanceof List<?> sites && !sites.isEmpty()) {
      Map<?, ?> top = (Map<?, ?>) sites.get(0);
      printStack("blocked: " + top.get("site") + " (" + top.get("blockedSeconds") + " s)", top);
    }
    for (String key :
        List.of(
            "segments",
            "occupancyHistory",
            "mostRecompiledMethods",
            "mostDeoptimizedMethods",
            "protocols",
            "ciphers",
            "pauseShareOfWallTime",
            "pausesByCollectorAndCause")) {
      Object value = evidence.get(key);
      // An empty list says nothing here (JDK 11 has no deoptimisation events to list).
      if (value != null && !(value instanceof Collection<?> none && none.isEmpty())) {
        println("    " + key + ": " + value);
      }
    }
    n.snapshot().ifPresent(snapshot -> println("    JFR evidence: " + snapshot));
    println("");
  }

  /** A headline and the first frames of the {@code stack} of {@code site}, if it has one. */
  private static void printStack(String headline, Map<?, ?> site) {
    println("    " + headline);
    if (site.get("stack") instanceof List<?> stack) {
      stack.stream().limit(6).forEach(frame -> println("      at " + frame));
    }
  }

  private static void println(String line) {
    System.out.println(SafeText.of(line));
  }
}
