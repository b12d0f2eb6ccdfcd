package io.jvmsentinel.daemon.it;

import static io.jvmsentinel.daemon.it.matrix.Expectation.allowedUntil;
import static io.jvmsentinel.daemon.it.matrix.Expectation.fires;
import static io.jvmsentinel.daemon.it.matrix.Expectation.firesAnyOf;
import static io.jvmsentinel.daemon.it.matrix.Expectation.tolerated;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.it.matrix.Cell;
import io.jvmsentinel.daemon.it.matrix.Expectation;
import io.jvmsentinel.daemon.it.matrix.MatrixReport;
import io.jvmsentinel.daemon.it.matrix.Onset;
import io.jvmsentinel.daemon.it.matrix.Raised;
import io.jvmsentinel.daemon.it.matrix.Row;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabProcessException;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The precision matrix of issue 12: every scenario of the lab under one daemon with its DEFAULT
 * rules (3-minute warm-up included), and for every rule whether it fires or stays silent, how long
 * after the scenario's onset, and whether its summary names the expected cause. Alerts are taken
 * from the daemon's webhook, as a user would get them.
 *
 * <p>The targets run side by side on a 2-core machine, so their incidents are staggered by {@code
 * --delay} (t = seconds after the labs start): churn-from-boot 0-90 and gc-at-startup 0-60,
 * storm-after-storm 30-150, codecache-full and tls-full-handshakes from 100, the low-rate TLS storm
 * 170-210, mixed 150-370 (its incidents: thread-per-request, TLS listener storm, GC pressure, deopt
 * storm), pool-start at 30 and 230, the feature switched on at 200 and watched for the 3 minutes
 * the issue asks, and class loader churn from 200 (issue 26): about 7 minutes in all. The
 * thread-per-request, tls-listener-storm, gc-pressure, deopt-storm and codecache-churn incidents
 * run singly, with a short warm-up, in {@link ScenarioSuiteIT} (on JDK 17 only those no replay
 * judges); here they are covered by {@code mixed} (codecache-churn is left out: a second
 * core-hungry target beside churn-from-boot).
 *
 * <p>Writes {@code target/scenario-matrix.json} and {@code target/scenario-matrix.md} (the table in
 * docs/alerts.md), then fails if any cell does not hold.
 *
 * <p>{@code -Dmatrix.jdk=11} runs every row on that JDK instead of 17 (JDK 11: JFR from the chunk
 * feed, and no {@code jdk.Deoptimization} before JDK 14: the deoptimisation storm of {@code mixed}
 * is inferred from the code it throws away, so it is given longer); {@code -Dmatrix.pollInterval}
 * sets the targets' JMX poll interval (default 2s); {@code -Dmatrix.record=DIR} records every
 * target's signal timeline and onset lines into DIR as replay fixtures ({@code <row>-jdk<N>}).
 */
class ScenarioMatrixIT {

  static final List<String> RULES =
      List.of(
          "ThreadStorm",
          "CodeCacheNearFull",
          "CodeCacheFull",
          "CodeCacheChurn",
          "ClassLoaderChurn",
          "CompilerCpuHigh",
          "DeoptimizationStorm",
          "GcOverhead",
          "TlsHandshakeStorm",
          "TargetDown");

  private static final String JDK_8246039 = "JDK-8246039";
  private static final String FINISH_HANDSHAKE =
      "sun.security.ssl.TransportContext.finishHandshake";

  /** Labs that end their scenario stay up, idle, so the daemon watches them to the end. */
  private static final String LINGER = "900s";

  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  /** Issue 26: every alert resolves within 30 s of its cause stopping. */
  private static final Duration RESOLVED = Duration.ofSeconds(30);

  private static final Duration READY = Duration.ofSeconds(60);

  @TempDir Path dir;

  static final int JDK = Integer.getInteger("matrix.jdk", 17);
  private static final String POLL_INTERVAL = System.getProperty("matrix.pollInterval", "2s");
  private static final String RECORD = System.getProperty("matrix.record", "");

  /** The JFR event DeoptimizationStorm reads, {@code jdk.Deoptimization}, arrived in JDK 14. */
  private static final int FIRST_DEOPTIMIZATION_EVENT_JDK = 14;

  /**
   * Before it, the storm is inferred from the recompilations it causes, which the chunk feed brings
   * in lumps: 17 s after the onset in the replay of deopt-storm-jdk11.
   */
  private static final Duration INFERRED_DEOPTIMIZATION_BOUND = Duration.ofSeconds(30);

  static List<Row> rows() {
    return rows(JDK);
  }

  static List<Row> rows(int jdk) {
    List<Expectation> mixed =
        new ArrayList<>(
            List.of(
                // Each incident ends with the next quiet phase (the first is before them all).
                fires(
                        "ThreadStorm",
                        new Onset("storm", 1),
                        TEN_SECONDS,
                        "io.jvmsentinel.lab.RequestDispatcher.dispatch")
                    .resolvedWithin(RESOLVED, new Onset("quiet", 2)),
                fires(
                        "ThreadStorm",
                        new Onset("storm", 2),
                        TEN_SECONDS,
                        FINISH_HANDSHAKE,
                        JDK_8246039)
                    .resolvedWithin(RESOLVED, new Onset("quiet", 3)),
                fires("GcOverhead", Onset.of("gc"), Duration.ofSeconds(60))
                    .resolvedWithin(RESOLVED, new Onset("quiet", 4))));
    // Issue 26: inside the storm's own 30 s phase.
    mixed.add(
        fires(
                "DeoptimizationStorm",
                Onset.of("deopt"),
                jdk >= FIRST_DEOPTIMIZATION_EVENT_JDK
                    ? Duration.ofSeconds(20)
                    : INFERRED_DEOPTIMIZATION_BOUND)
            .resolvedWithin(RESOLVED, new Onset("quiet", 5)));
    return List.of(
        new Row("healthy", "healthy", jdk, List.of(), Onset.of("steady"), Duration.ZERO, List.of()),
        new Row(
            "feature-after-warmup",
            "feature-after-warmup",
            jdk,
            List.of("--pause", "200s"),
            Onset.of("feature"),
            Duration.ofMinutes(3),
            List.of()),
        new Row(
            "storm-after-storm",
            "storm-after-storm",
            jdk,
            List.of("--delay", "30s", "--phase", "30s", "--pause", "60s"),
            Onset.of("quiet"),
            Duration.ofSeconds(30),
            List.of(
                fires(
                        "ThreadStorm",
                        Onset.of("logger-storm"),
                        TEN_SECONDS,
                        "io.jvmsentinel.lab.ThreadPerEventLogger.log")
                    .resolvedWithin(RESOLVED, Onset.of("gap")),
                fires(
                        "ThreadStorm",
                        Onset.of("tls-storm"),
                        TEN_SECONDS,
                        FINISH_HANDSHAKE,
                        JDK_8246039)
                    .resolvedWithin(RESOLVED, Onset.of("quiet")))),
        new Row(
            "tls-listener-storm-30",
            "tls-listener-storm",
            jdk,
            List.of("--rate", "30", "--delay", "170s", "--duration", "210s", "--linger", LINGER),
            Onset.of("storm"),
            // The storm ends 40 s in; its alert must resolve within 30 s of that.
            Duration.ofSeconds(75),
            List.of(
                fires("ThreadStorm", Onset.of("storm"), Duration.ofSeconds(15), JDK_8246039)
                    .resolvedWithin(RESOLVED, Onset.of("linger")))),
        new Row(
            "churn-from-boot",
            "churn-from-boot",
            jdk,
            List.of("--duration", "90s", "--linger", LINGER),
            Onset.of("churn"),
            Duration.ofSeconds(90),
            churnFromBoot(jdk)),
        new Row(
            "gc-at-startup",
            "gc-at-startup",
            jdk,
            List.of(),
            Onset.of("startup-over"),
            Duration.ofSeconds(150),
            // Pauses during start-up are real (77% of wall time): reporting them is right; still
            // reporting them, or reporting new ones, once start-up is over is not.
            List.of(allowedUntil("GcOverhead", Onset.of("startup-over"), RESOLVED))),
        // Issue 26: the same classes reloaded in new class loaders 10 times a second, 200 s in
        // (past warm-up), in a roomy code cache: the same methods compiled again, nothing
        // deoptimised, no cache pressure. ClassLoaderChurn, not CodeCacheChurn (a larger cache
        // would not help) nor CompilerCpuHigh.
        new Row(
            "classloader-churn",
            "classloader-churn",
            jdk,
            List.of("--pause", "200s"),
            Onset.of("reload"),
            Duration.ofSeconds(120),
            List.of(
                fires(
                    "ClassLoaderChurn",
                    Onset.of("reload"),
                    Duration.ofSeconds(60),
                    "the same methods compiled again",
                    "because their class loaders are dropped and reloaded"))),
        new Row(
            "pool-start",
            "pool-start",
            jdk,
            List.of("--delay", "30s", "--pause", "200s"),
            Onset.of("pool-restart"),
            Duration.ofSeconds(30),
            List.of()),
        new Row(
            "mixed",
            "mixed",
            jdk,
            List.of("--delay", "150s"),
            Onset.of("end"),
            // The last incident ends 20 s before "end"; its alert must resolve within 30 s of that.
            Duration.ofSeconds(15),
            List.copyOf(mixed)));
  }

  /**
   * Churn from boot in an 8 MB cache. On JDK 11 the JIT stops when that cache fills (measured:
   * compilation disabled for 3 minutes, then restarted once the sweeper freed half the cache),
   * where JDK 17's throttles itself below full: CodeCacheFull is then true, and so is churn again
   * while the restarted JIT recompiles what was flushed. Its events come one chunk read (2 s)
   * later, and under eight labs starting at once a recording start can time out and be retried 10 s
   * later.
   */
  private static List<Expectation> churnFromBoot(int jdk) {
    boolean jitStopsWhenFull = jdk < 17;
    List<Expectation> expected = new ArrayList<>();
    expected.add(
        firesAnyOf(
            Set.of("CodeCacheChurn", "CodeCacheNearFull", "CodeCacheFull"),
            Onset.of("churn"),
            Duration.ofSeconds(jitStopsWhenFull ? 75 : 60)));
    // Churn's compiler cost is real: the issue wants it reported even in warm-up.
    expected.add(tolerated("CompilerCpuHigh"));
    if (jitStopsWhenFull) {
      expected.add(tolerated("CodeCacheFull"));
      expected.add(tolerated("CodeCacheChurn"));
    }
    return List.copyOf(expected);
  }

  @Test
  void everyRuleFiresOrStaysSilentAsExpectedOnEveryScenario() throws Exception {
    Instant started = Instant.now();
    Map<Row, LabProcess> labs = new LinkedHashMap<>();
    try (WebhookReceiver webhook = WebhookReceiver.start()) {
      for (Row row : rows()) {
        labs.put(
            row,
            LabScenarios.builder(row.scenario(), Jdks.jdk(row.jdk()), row.jdk())
                .args(row.args().toArray(new String[0]))
                .build()
                .start());
      }
      for (Map.Entry<Row, LabProcess> entry : labs.entrySet()) {
        try {
          entry.getValue().awaitReady(READY);
        } catch (LabProcessException e) {
          if (!e.portInUse()) {
            throw e;
          }
          // Two labs started at once picked the same free port: start this one again, alone.
          entry.setValue(entry.getValue().spec().startReady(READY));
        }
      }
      SentinelDaemon daemon = Daemons.start(dir, config(webhook, labs));
      try {
        watchUntilEveryRowIsDone(labs);
      } finally {
        daemon.close();
      }
      List<Raised> raised = Raised.fromWebhook(List.copyOf(webhook.received()));
      Map<Row, List<Cell>> results = new LinkedHashMap<>();
      labs.forEach(
          (row, lab) ->
              results.put(
                  row,
                  row.judge(
                      RULES,
                      lab.events(),
                      raised.stream().filter(r -> r.target().equals(row.name())).toList())));
      Path out = Path.of("target");
      MatrixReport.write(out, results, started);
      if (!RECORD.isEmpty()) {
        for (Map.Entry<Row, LabProcess> entry : labs.entrySet()) {
          String fixture = entry.getKey().name() + "-jdk" + JDK;
          Files.write(
              Path.of(RECORD, fixture + ".onsets"),
              entry.getValue().output().stream().filter(l -> l.startsWith("LAB onset")).toList());
        }
      }
      System.out.println(Files.readString(out.resolve("scenario-matrix.md")));

      List<String> failed = new ArrayList<>();
      results.forEach(
          (row, cells) ->
              cells.stream()
                  .filter(c -> !c.passed())
                  .forEach(
                      c ->
                          failed.add(
                              row.name()
                                  + ": "
                                  + c.expectation().describe()
                                  + ": "
                                  + c.problem())));
      assertThat(failed)
          .as("matrix cells that do not hold (see target/scenario-matrix.md)")
          .isEmpty();
    } finally {
      labs.values().forEach(LabProcess::close);
    }
  }

  /** Until every row's onset plus its watch time has passed (at most 9 minutes). */
  private static void watchUntilEveryRowIsDone(Map<Row, LabProcess> labs) throws Exception {
    Instant cap = Instant.now().plus(Duration.ofMinutes(9));
    while (Instant.now().isBefore(cap)) {
      boolean done = true;
      for (Map.Entry<Row, LabProcess> entry : labs.entrySet()) {
        Optional<Instant> from = entry.getKey().watchFrom().in(entry.getValue().events());
        if (from.isEmpty() || Instant.now().isBefore(from.get().plus(entry.getKey().watchFor()))) {
          done = false;
        }
      }
      if (done) {
        return;
      }
      Thread.sleep(1_000);
    }
  }

  private static String config(WebhookReceiver webhook, Map<Row, LabProcess> labs) {
    StringBuilder yaml =
        new StringBuilder(Daemons.webhookAndSnapshots(webhook.url(), "")).append("targets:\n");
    labs.forEach(
        (row, lab) ->
            yaml.append("  - name: ")
                .append(row.name())
                .append("\n    jmx: ")
                .append(lab.jmxHostPort())
                .append("\n    pollInterval: ")
                .append(POLL_INTERVAL)
                .append("\n"));
    String config = yaml.toString();
    return RECORD.isEmpty()
        ? config
        : config.replace("detection:\n", "detection:\n  recordDirectory: \"" + RECORD + "\"\n");
  }
}
