package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.alert.notify.JsonLogNotifier;
import io.jvmsentinel.daemon.detection.AlertTransitionLog;
import io.jvmsentinel.daemon.detection.DetectionEngine;
import io.jvmsentinel.daemon.detection.ScriptedDetection;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.jvmsentinel.daemon.web.RecentAlerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The demo's terminal: stdout (the alert view) and stderr (the log) together. */
class AlertConsoleTest {
  @TempDir Path tmp;
  private final PrintStream stdout = System.out;
  private final PrintStream stderr = System.err;

  @AfterEach
  void restore() {
    System.setOut(stdout);
    System.setErr(stderr);
    for (String logger : List.of(AlertTransitionLog.LOGGER, JsonLogNotifier.LOGGER)) {
      ((Logger) LoggerFactory.getLogger(logger)).setLevel(null);
    }
  }

  @Test
  void eachAlertFiresAndResolvesOnceInTheTerminal() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    PrintStream both = new PrintStream(terminal, true, StandardCharsets.UTF_8);
    System.setOut(both);
    System.setErr(both);
    AlertConsole.muteAlertLogLines();
    MutableClock clock = new MutableClock(Samples.T0);
    ScriptedDetection.ScriptedRule rule = new ScriptedDetection.ScriptedRule();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    WatchedTarget target = UnstartedTarget.create("orders", registry, tmp);
    AlertConsole console = new AlertConsole();
    RecentAlerts recent = new RecentAlerts(console);
    DetectionEngine engine =
        ScriptedDetection.engine(() -> List.of(target), rule, recent, registry, clock);
    try {
      rule.keys = List.of("disk");
      ticks(engine, clock, 4); // pending for 4 s, then firing
      console.printChanges();
      rule.keys = List.of();
      ticks(engine, clock, 5); // clear for 6 s, then resolved
      console.printChanges();
    } finally {
      engine.close();
      target.close();
    }

    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).filteredOn(line -> line.contains("Scripted")).hasSize(2);
    assertThat(lines)
        .filteredOn(line -> line.toLowerCase().contains("resolved"))
        .singleElement()
        .asString()
        .matches("  \\d\\d:\\d\\d:\\d\\d RESOLVED Scripted: trouble with disk");
  }

  @Test
  void anUpdateIsShownOnceWithItsNewText() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    System.setOut(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    AlertConsole console = new AlertConsole();
    RecentAlerts recent = new RecentAlerts(console);

    recent.notify(notification(AlertNotification.Status.FIRING, "212 thread starts/s", 0));
    console.printChanges();
    recent.notify(
        notification(
            AlertNotification.Status.UPDATED, "212 thread starts/s, 97% from Worker.spawn", 9));
    console.printChanges();
    console.printChanges();

    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines)
        .filteredOn(line -> line.contains("ThreadStorm"))
        .containsExactly(
            "  10:00:00 ALERT WARNING ThreadStorm: 212 thread starts/s",
            "  10:00:09 UPDATED ThreadStorm: 212 thread starts/s, 97% from Worker.spawn");
  }

  @Test
  void everyTransitionBetweenTwoRefreshesIsShownInOrder() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    System.setOut(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    AlertConsole console = new AlertConsole();
    RecentAlerts recent = new RecentAlerts(console);

    // A long refresh (demo --view-interval 60): two storms fire and resolve, one is updated.
    recent.notify(notification(AlertNotification.Status.FIRING, "first storm", 0));
    recent.notify(notification(AlertNotification.Status.RESOLVED, "first storm", 20));
    recent.notify(notification(AlertNotification.Status.FIRING, "second storm", 40, 40));
    recent.notify(notification(AlertNotification.Status.UPDATED, "second storm, named", 40, 41));
    console.printChanges();
    console.printChanges();

    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines)
        .filteredOn(line -> line.contains("ThreadStorm"))
        .containsExactly(
            "  10:00:00 ALERT WARNING ThreadStorm: first storm",
            "  10:00:20 RESOLVED ThreadStorm: first storm",
            "  10:00:40 ALERT WARNING ThreadStorm: second storm",
            "  10:00:41 UPDATED ThreadStorm: second storm, named");
  }

  @Test
  void aChurnAlertShowsTheMethodsCompiledAgainThatItsActionPointsTo() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    System.setOut(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    AlertConsole console = new AlertConsole();
    RecentAlerts recent = new RecentAlerts(console);
    Map<String, Object> evidence =
        Map.of(
            "mostRecompiledMethods", List.of("Churn.run (40)"),
            "mostDeoptimizedMethods", List.of("Churn.loop (3)"),
            "occupancyHistory", List.of(),
            "subWindowsHeld", "4 of 6");

    recent.notify(
        firing("CodeCacheChurn", "codecache churn", "check the most recompiled methods", evidence));
    console.printChanges();

    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines)
        .filteredOn(line -> line.startsWith("    most"))
        .containsExactly(
            "    mostRecompiledMethods: [Churn.run (40)]",
            "    mostDeoptimizedMethods: [Churn.loop (3)]");
    assertThat(lines)
        .noneMatch(line -> line.contains("subWindowsHeld") || line.contains("occupancyHistory"));
  }

  @Test
  void aLockContentionAlertShowsTheHolderAndWhereThreadsBlockAsItsActionSays() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    System.setOut(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    AlertConsole console = new AlertConsole();
    Map<String, Object> evidence =
        Map.of(
            "lockClass", "com.example.ConnectionCache",
            "holder",
                Map.of(
                    "thread", "request-7",
                    "state", "TIMED_WAITING",
                    "stack", List.of("java.lang.Thread.sleep", "com.example.ConnectionCache.put")),
            "blockedSites",
                List.of(
                    Map.of(
                        "site",
                        "com.example.Handler.handle",
                        "blockedSeconds",
                        41.5,
                        "stack",
                        List.of("com.example.ConnectionCache.get"))));

    console.notify(
        firing(
            "LockContention",
            "Lock contention on orders",
            "Look at the holder's stack and the blocked sites",
            evidence));
    console.printChanges();

    List<String> lines = terminal.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines)
        .containsSubsequence(
            "    holder: request-7 (TIMED_WAITING)",
            "      at java.lang.Thread.sleep",
            "      at com.example.ConnectionCache.put",
            "    blocked: com.example.Handler.handle (41.5 s)",
            "      at com.example.ConnectionCache.get");
  }

  /** A name that would colour, clear or rewrite the terminal, or read backwards. */
  private static final String HOSTILE =
      "Evil\u001b[2J\u001b[31mred\u001b]0;title\u0007\rforged\nline\u200Bzw\u202Eexe";

  /** An object whose text the console prints as it is: not a string, so not cleaned as one. */
  private record Site(String name) {
    @Override
    public String toString() {
      return name;
    }
  }

  @Test
  void noEscapeSequenceOrLineBreakFromTheTargetReachesTheTerminal() {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    System.setOut(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    AlertConsole console = new AlertConsole();
    Map<String, Object> top =
        Map.of(
            "site", new Site(HOSTILE),
            "threadNames", List.of(HOSTILE),
            "stack", List.of(HOSTILE, "java.lang.Thread.start"));
    console.notify(
        new AlertNotification(
            "ThreadStorm",
            "orders",
            HOSTILE,
            Severity.WARNING,
            AlertNotification.Status.FIRING,
            Samples.T0,
            Samples.T0,
            "storm from " + HOSTILE,
            "why " + HOSTILE,
            "do " + HOSTILE,
            "",
            Map.of("topCreatorSites", List.of(top), "segments", List.of(new Site(HOSTILE))),
            Optional.of("/snapshots/" + HOSTILE + ".jfr")));
    console.printChanges();

    String out = terminal.toString(StandardCharsets.UTF_8);
    String clean = "Evil_[2J_[31mred_]0;title__forged_line_zw_exe";
    assertThat(out).doesNotContain("\u001b", "\u0007", "\r", "\u200B", "\u202E");
    assertThat(out.lines().toList())
        .contains(
            "  10:00:00 ALERT WARNING ThreadStorm: storm from " + clean,
            "    why:  why " + clean,
            "    do:   do " + clean,
            "    creator: " + clean + " ([" + clean + "])",
            "      at " + clean,
            "      at java.lang.Thread.start",
            "    segments: [" + clean + "]",
            "    JFR evidence: /snapshots/" + clean + ".jfr")
        .noneMatch(line -> line.startsWith("forged") || line.startsWith("line"));
  }

  private static AlertNotification firing(
      String rule, String summary, String action, Map<String, Object> evidence) {
    return new AlertNotification(
        rule,
        "orders",
        "",
        Severity.WARNING,
        AlertNotification.Status.FIRING,
        Samples.T0,
        Samples.T0,
        summary,
        "why",
        action,
        "",
        evidence,
        Optional.empty());
  }

  private static AlertNotification notification(
      AlertNotification.Status status, String summary, int second) {
    return notification(status, summary, 0, second);
  }

  private static AlertNotification notification(
      AlertNotification.Status status, String summary, int startedSecond, int second) {
    return new AlertNotification(
        "ThreadStorm",
        "orders",
        "",
        Severity.WARNING,
        status,
        Samples.T0.plusSeconds(startedSecond),
        Samples.T0.plusSeconds(second),
        summary,
        "why",
        "do",
        "",
        Map.of(),
        Optional.empty());
  }

  private static void ticks(DetectionEngine engine, MutableClock clock, int ticks) {
    for (int i = 0; i < ticks; i++) {
      engine.tick();
      clock.advance(Duration.ofSeconds(2));
    }
  }
}
