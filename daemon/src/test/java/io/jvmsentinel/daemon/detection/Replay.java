package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the production rules and alert life cycle over a recorded signal timeline, at the recorded 1
 * s cadence, in milliseconds: what the daemon would have paged, and when. Rules read only the
 * samples, so a replay is exact.
 */
final class Replay {
  private Replay() {}

  /** One page: an alert firing or resolving, seconds after the recording began. */
  record Page(String rule, AlertNotification.Status status, double atSecond, String summary) {
    @Override
    public String toString() {
      return String.format("%6.0fs %s %s: %s", atSecond, status, rule, summary);
    }
  }

  static List<Page> run(Path recording, WarmUp warmUp) throws IOException {
    return run(SignalRecorder.read(recording), warmUp);
  }

  static List<Page> run(List<SignalSample> samples, WarmUp warmUp) {
    List<AlertNotification> sent = new ArrayList<>();
    try (DetectionEngine engine =
        new DetectionEngine(
            List::of,
            Rules.all(),
            RuleSettings.DEFAULTS,
            sent::add,
            EvidenceSnapshots.disabled(),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            Duration.ofSeconds(1),
            warmUp,
            AlertStateFile.none(),
            Duration.ZERO,
            SignalRecorder.none())) {
      for (SignalSample sample : samples) {
        engine.observe("replay", sample);
      }
    }
    Instant start = samples.isEmpty() ? Instant.EPOCH : samples.get(0).at();
    return sent.stream()
        .map(
            n ->
                new Page(
                    n.ruleId(),
                    n.status(),
                    Duration.between(start, n.at()).toMillis() / 1000.0,
                    n.summary()))
        .toList();
  }
}
