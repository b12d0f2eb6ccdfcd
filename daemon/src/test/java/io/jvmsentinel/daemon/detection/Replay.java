package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Runs the production rules and alert life cycle over a recorded signal timeline, at the recorded 1
 * s cadence, in milliseconds: what the daemon would have paged, and when. Rules read only the
 * samples, so a replay is exact. The engine reads the timeline through its {@link SignalSource},
 * tick by tick on a clock set to each sample's time, as it reads live targets.
 */
final class Replay {
  static final String TARGET = "replay";
  static final Path FIXTURES = Jdks.repoRoot().resolve("daemon/src/test/resources/replay");

  private Replay() {}

  /** One page: an alert firing, updated or resolving, seconds after the recording began. */
  record Page(
      String rule,
      AlertNotification.Status status,
      double atSecond,
      String summary,
      String explanation,
      Map<String, Object> evidence) {
    @Override
    public String toString() {
      return String.format("%6.0fs %s %s: %s", atSecond, status, rule, summary);
    }
  }

  /**
   * The lab's recorded timeline {@code name}, as the sampler reports it today. The JDK 11
   * recordings are older than the sampler's report of deoptimisations as unknown (NaN, not 0) on a
   * JVM without jdk.Deoptimization, which JDK 11 is: their zeros are read as unknown.
   */
  static List<SignalSample> fixture(String name) throws IOException {
    Path file = FIXTURES.resolve(name + ".signals.jsonl.gz");
    if (!name.endsWith("-jdk11")) {
      return SignalRecorder.read(file);
    }
    Path sampledNow = Files.createTempFile(name, ".signals.jsonl");
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      Files.writeString(
          sampledNow,
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .replace("\"deoptimizations\":0.0", "\"deoptimizations\":\"NaN\"")
              .replace("\"madeNotEntrant\":0.0", "\"madeNotEntrant\":\"NaN\""));
      return SignalRecorder.read(sampledNow);
    } finally {
      Files.delete(sampledNow);
    }
  }

  static List<Page> run(Path recording, WarmUp warmUp) throws IOException {
    return run(SignalRecorder.read(recording), warmUp);
  }

  static List<Page> run(List<SignalSample> samples, WarmUp warmUp) {
    List<AlertNotification> sent = new ArrayList<>();
    runEngine(samples, warmUp, AlertStateFile.none(), Duration.ZERO, sent);
    return pages(samples, sent);
  }

  /**
   * The same timeline with the daemon restarted: the first daemon sees the samples up to {@code
   * stopAfter} from the start and keeps its firing alerts in {@code stateFile}; none runs for
   * {@code downFor}; a second one takes the alerts back (restore grace {@code restoreGrace}) and
   * sees the rest. The pages of both, in order.
   */
  static List<Page> runWithRestart(
      List<SignalSample> samples,
      WarmUp warmUp,
      Duration stopAfter,
      Duration downFor,
      Path stateFile,
      Duration restoreGrace) {
    Instant start = samples.isEmpty() ? Instant.EPOCH : samples.get(0).at();
    Instant stop = start.plus(stopAfter);
    Instant back = stop.plus(downFor);
    List<AlertNotification> sent = new ArrayList<>();
    AlertStateFile state = AlertStateFile.at(stateFile);
    runEngine(
        samples.stream().filter(s -> s.at().isBefore(stop)).toList(),
        warmUp,
        state,
        restoreGrace,
        sent);
    runEngine(
        samples.stream().filter(s -> !s.at().isBefore(back)).toList(),
        warmUp,
        state,
        restoreGrace,
        sent);
    return pages(samples, sent);
  }

  private static void runEngine(
      List<SignalSample> samples,
      WarmUp warmUp,
      AlertStateFile stateFile,
      Duration restoreGrace,
      List<AlertNotification> sent) {
    if (samples.isEmpty()) {
      return;
    }
    MutableClock clock = new MutableClock(samples.get(0).at());
    // One life of the target across the timeline (a daemon restart does not restart the target).
    Object instance = new Object();
    SignalSample[] current = new SignalSample[1];
    SignalSource source =
        now -> List.of(new TargetSignals(TARGET, instance, Tags.empty(), current[0]));
    try (DetectionEngine engine =
        engine(source, clock, warmUp, stateFile, restoreGrace, sent::add)) {
      for (SignalSample sample : samples) {
        clock.set(sample.at());
        current[0] = sample;
        engine.tick();
      }
    }
  }

  /** The production rules at their defaults, ticked by the caller on {@code clock}. */
  static DetectionEngine engine(
      SignalSource source,
      Clock clock,
      WarmUp warmUp,
      AlertStateFile stateFile,
      Duration restoreGrace,
      AlertListener listener) {
    return new DetectionEngine(
        source,
        Rules.all(),
        RuleSettings.DEFAULTS,
        listener,
        EvidenceSnapshots.disabled(),
        new SimpleMeterRegistry(),
        clock,
        Duration.ofSeconds(1),
        warmUp,
        stateFile,
        restoreGrace,
        SignalRecorder.none());
  }

  private static List<Page> pages(List<SignalSample> samples, List<AlertNotification> sent) {
    Instant start = samples.isEmpty() ? Instant.EPOCH : samples.get(0).at();
    return sent.stream()
        .map(
            n ->
                new Page(
                    n.ruleId(),
                    n.status(),
                    Duration.between(start, n.at()).toMillis() / 1000.0,
                    n.summary(),
                    n.explanation(),
                    n.evidence()))
        .toList();
  }
}
