package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.threads.SiteStarts;
import io.jvmsentinel.daemon.alert.AlertNotification.Status;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.config.AlertsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An alert's life on recorded timelines, beyond firing: a daemon restart in the middle of a firing
 * alert, an alert raised before the JFR stream was up and updated once its events name the cause,
 * and a target without JFR at all.
 */
class AlertLifeReplayTest {
  private static final String LOGGER = "from io.jvmsentinel.lab.ThreadPerEventLogger.log";

  @TempDir Path dir;

  static List<SignalSample> fixture(String name) throws IOException {
    return Replay.fixture(name);
  }

  static Instant onset(String fixture, String marker) throws IOException {
    Pattern at = Pattern.compile("at=(\\d+)");
    for (String line : Files.readAllLines(Replay.FIXTURES.resolve(fixture + ".onsets"))) {
      Matcher m = at.matcher(line);
      if (line.contains(marker) && m.find()) {
        return Instant.ofEpochMilli(Long.parseLong(m.group(1)));
      }
    }
    throw new AssertionError("no onset " + marker + " in " + fixture);
  }

  static List<Replay.Page> with(List<Replay.Page> pages, String rule, Status status) {
    return pages.stream().filter(p -> p.rule().equals(rule) && p.status() == status).toList();
  }

  static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }

  @Test
  void aDaemonRestartDuringAFiringAlertNeitherPagesAgainNorLosesItsResolve() throws IOException {
    List<SignalSample> samples = fixture("storm-after-storm-jdk17");
    List<Replay.Page> baseline = Replay.run(samples, WarmUp.DEFAULT);
    Replay.Page fired = with(baseline, "ThreadStorm", Status.FIRING).get(0);

    // Stopped 15 s into the first storm's alert, back 10 s later with the state file.
    List<Replay.Page> restarted =
        Replay.runWithRestart(
            samples,
            WarmUp.DEFAULT,
            Duration.ofMillis((long) (fired.atSecond() * 1000) + 15_000),
            Duration.ofSeconds(10),
            dir.resolve("alerts.json"),
            AlertsConfig.DEFAULT_RESTORE_GRACE);

    assertThat(restarted.stream().filter(p -> p.status() == Status.FIRING).map(Replay.Page::rule))
        .as("no second page for the alert that was firing; pages: %s", restarted)
        .containsExactlyElementsOf(
            baseline.stream()
                .filter(p -> p.status() == Status.FIRING)
                .map(Replay.Page::rule)
                .toList());
    List<Replay.Page> resolves = with(restarted, "ThreadStorm", Status.RESOLVED);
    List<Replay.Page> baselineResolves = with(baseline, "ThreadStorm", Status.RESOLVED);
    assertThat(resolves).hasSameSizeAs(baselineResolves);
    // The first storm ended while the daemon was down: its alert is held through the restore grace
    // (the rules have no history yet), then resolves; never merged into the next storm, which
    // pages on its own with its own cause.
    double back = fired.atSecond() + 25;
    double grace = AlertsConfig.DEFAULT_RESTORE_GRACE.toSeconds();
    assertThat(resolves.get(0).atSecond())
        .isGreaterThanOrEqualTo(baselineResolves.get(0).atSecond())
        .isLessThanOrEqualTo(back + grace + 15 + 2);
    Replay.Page second = with(restarted, "ThreadStorm", Status.FIRING).get(1);
    assertThat(resolves.get(0).atSecond()).isLessThanOrEqualTo(second.atSecond());
    assertThat(second.summary()).contains("finishHandshake");
    assertThat(with(restarted, "ThreadStorm", Status.UPDATED)).isEmpty();
  }

  @Test
  void anAlertRaisedBeforeTheStreamIsUpIsUpdatedWithTheCreatorOnceItsEventsArrive()
      throws IOException {
    String name = "storm-after-storm-jdk17";
    Instant storm = onset(name, "phase=logger-storm");
    // The daemon connected as the storm began; its JFR stream came up 8 s later (a slow start on a
    // busy target): until then it sees only the JMX count, a different counter, and no creators.
    Instant streamUp = storm.plusSeconds(8);
    List<SignalSample> samples =
        fixture(name).stream()
            .map(s -> s.at().isBefore(streamUp) ? beforeTheStream(s) : s)
            .toList();
    Instant start = samples.get(0).at();

    List<Replay.Page> pages = Replay.run(samples, WarmUp.DEFAULT);

    Replay.Page fired = with(pages, "ThreadStorm", Status.FIRING).get(0);
    assertThat(fired.atSecond()).isLessThan(seconds(start, streamUp));
    assertThat(fired.summary()).doesNotContain(" from ");
    assertThat(fired.explanation())
        .contains("creator sites are unknown")
        .contains("the JFR stream is starting");
    List<Replay.Page> updates = with(pages, "ThreadStorm", Status.UPDATED);
    assertThat(updates).as("pages: %s", pages).isNotEmpty();
    Replay.Page update = updates.get(0);
    assertThat(update.summary()).contains(LOGGER);
    assertThat(update.explanation()).doesNotContain("JFR stream");
    assertThat(update.atSecond() - seconds(start, streamUp))
        .as("update after the stream's first events")
        .isBetween(0.0, 15.0);
    assertThat(updates).as("told once").hasSize(1);
    // The rest of the alert's life is unchanged: one resolve, then the next storm's own page.
    assertThat(pages.stream().map(p -> p.rule() + " " + p.status()))
        .containsExactly(
            "ThreadStorm FIRING",
            "ThreadStorm UPDATED",
            "ThreadStorm RESOLVED",
            "ThreadStorm FIRING",
            "ThreadStorm RESOLVED");
  }

  @Test
  void aTargetWithoutJfrPagesOnItsJmxCountAndSaysWhyItCannotNameTheCreator() throws IOException {
    String name = "thread-per-request-jmx-only-jdk11";
    List<SignalSample> samples = fixture(name);
    Instant start = samples.get(0).at();

    List<Replay.Page> pages = Replay.run(samples, WarmUp.DEFAULT);

    assertThat(pages)
        .as("pages: %s", pages)
        .singleElement()
        .satisfies(
            page -> {
              assertThat(page.rule()).isEqualTo("ThreadStorm");
              assertThat(page.status()).isEqualTo(Status.FIRING);
              assertThat(page.atSecond() - seconds(start, onset(name, "phase=storm")))
                  .isBetween(0.0, 10.0);
              assertThat(page.explanation()).contains("the target has no FlightRecorder MBean");
            });
  }

  /** A sample as the daemon takes it before its stream is up: JMX's count, no JFR tables. */
  static SignalSample beforeTheStream(SignalSample s) {
    SignalSample.Details d = s.details();
    SignalSample.Target t = d.target();
    SignalSample.Details jmxOnly =
        new SignalSample.Details(
            new SignalSample.Target(
                t.address(),
                t.since(),
                t.lastError(),
                t.connectAttempts(),
                t.javaVersion(),
                t.vmOptions(),
                "not started",
                t.lastFailure()),
            SiteStarts.Interval.EMPTY,
            List.of(),
            List.of(),
            List.of(),
            d.compilerCpu(),
            d.gcPauses(),
            d.contention(),
            d.newThreads(),
            List.of());
    return new SignalSample(
        s.at(),
        s.up(),
        s.downSeconds(),
        s.uptimeSeconds(),
        false,
        false,
        // TotalStartedThreadCount counts from the JVM's start: another counter than the stream's.
        s.threadStarts() + 1000,
        0,
        Double.NaN,
        s.codeHeaps(),
        s.compilationEnabled(),
        s.codeCacheFullEvents(),
        Double.NaN,
        Double.NaN,
        Double.NaN,
        s.compileMillis(),
        Double.NaN,
        Double.NaN,
        s.codeCacheGcs(),
        s.gcPauseSeconds(),
        java.util.Map.of(),
        Double.NaN,
        s.compilerCpuSeconds(),
        s.classesLoaded(),
        s.classesUnloaded(),
        s.unnotifiedGcPauseSeconds(),
        Double.NaN,
        jmxOnly);
  }

  /** The sample {@code shift} later. */
  static SignalSample shifted(SignalSample s, Duration shift) {
    return new SignalSample(
        s.at().plus(shift),
        s.up(),
        s.downSeconds(),
        s.uptimeSeconds(),
        s.jfr(),
        s.jfrStormPaused(),
        s.threadStarts(),
        s.ownThreadStarts(),
        s.shortLivedThreads(),
        s.codeHeaps(),
        s.compilationEnabled(),
        s.codeCacheFullEvents(),
        s.compilations(),
        s.deoptimizations(),
        s.madeNotEntrant(),
        s.compileMillis(),
        s.compilerCpuShare(),
        s.sweeperReclaimed(),
        s.codeCacheGcs(),
        s.gcPauseSeconds(),
        s.tlsPeers(),
        s.recompilations(),
        s.compilerCpuSeconds(),
        s.classesLoaded(),
        s.classesUnloaded(),
        s.unnotifiedGcPauseSeconds(),
        s.discardedRecompilations(),
        s.details());
  }

  /**
   * JDK 11 records no jdk.Deoptimization: its churn alert leaves the deoptimised methods out
   * instead of listing none, which would read as "nothing was deoptimised".
   */
  @Test
  void aChurnAlertListsDeoptimisedMethodsOnlyWhereTheJvmRecordsThem() throws IOException {
    Map<String, Object> jdk11 = firstChurnEvidence("churn-from-boot-8m-jdk11");
    Map<String, Object> jdk17 = firstChurnEvidence("churn-from-boot-8m-jdk17");

    assertThat(jdk11)
        .containsKey("mostRecompiledMethods")
        .doesNotContainKey("mostDeoptimizedMethods");
    assertThat(jdk17).containsKeys("mostRecompiledMethods", "mostDeoptimizedMethods");
  }

  /**
   * A target that stops answering in the middle of its incident (a JVM thrashing until its JMX
   * times out) is not a resolve: the alert holds through an outage longer than the rule's clear
   * time, and the storm still raging after it is the same page, not a second one.
   */
  @Test
  void anOutageDuringAFiringAlertNeitherResolvesItNorPagesAgain() throws IOException {
    String name = "codecache-churn-4m-jdk17"; // churn from its onset to the recording's end
    List<SignalSample> samples = fixture(name);
    Instant start = samples.get(0).at();
    List<Replay.Page> baseline = Replay.run(samples, WarmUp.DEFAULT);
    Replay.Page fired = with(baseline, "CodeCacheChurn", Status.FIRING).get(0);
    Instant outageFrom = start.plusMillis((long) (fired.atSecond() * 1000) + 5000);
    Instant outageUntil = outageFrom.plusSeconds(25);
    assertThat(samples.get(samples.size() - 1).at())
        .as("the storm outlasts the outage")
        .isAfter(outageUntil.plusSeconds(30));

    List<Replay.Page> pages =
        Replay.run(unreachable(name, outageFrom, outageUntil), WarmUp.DEFAULT);

    assertThat(with(baseline, "CodeCacheChurn", Status.RESOLVED)).isEmpty();
    assertThat(pages)
        .as("pages: %s", pages)
        .filteredOn(p -> p.rule().equals("CodeCacheChurn") && p.status() != Status.UPDATED)
        .extracting(Replay.Page::status)
        .containsExactly(Status.FIRING);
    assertThat(pages).noneMatch(p -> p.rule().equals("TargetDown"));
  }

  /** The fixture with the target unreachable (not answering) from {@code from} to {@code until}. */
  private List<SignalSample> unreachable(String name, Instant from, Instant until)
      throws IOException {
    Pattern at = Pattern.compile("^\\{\"at\":\"([^\"]+)\"");
    SignalRecorder recorder = SignalRecorder.to(dir);
    fixture(name).forEach(sample -> recorder.record("as-recorded", sample));
    recorder.close();
    Path file = dir.resolve("outage.signals.jsonl");
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("as-recorded.signals.jsonl"))) {
      Matcher m = at.matcher(line);
      Instant when = m.find() ? Instant.parse(m.group(1)) : null;
      boolean down = when != null && !when.isBefore(from) && when.isBefore(until);
      out.add(down ? line.replaceFirst("\"up\":true", "\"up\":false") : line);
    }
    Files.write(file, out);
    return SignalRecorder.read(file);
  }

  private static Map<String, Object> firstChurnEvidence(String fixture) throws IOException {
    return with(Replay.run(fixture(fixture), WarmUp.DEFAULT), "CodeCacheChurn", Status.FIRING)
        .get(0)
        .evidence();
  }
}
