package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A detection engine over one rule whose findings the test sets: the alert life-cycle fixture. */
public final class ScriptedDetection {
  private ScriptedDetection() {}

  /** A rule whose findings the test sets. */
  public static final class ScriptedRule implements AlertRule {
    public List<String> keys = List.of();

    @Override
    public String id() {
      return "Scripted";
    }

    @Override
    public Severity severity() {
      return Severity.CRITICAL;
    }

    @Override
    public String description() {
      return "for tests";
    }

    @Override
    public List<RuleThreshold> thresholds() {
      return List.of();
    }

    @Override
    public List<RuleInput> inputs(Map<String, Double> thresholds) {
      return List.of();
    }

    @Override
    public Duration pendingFor() {
      return Duration.ofSeconds(4);
    }

    @Override
    public Duration clearFor() {
      return Duration.ofSeconds(6);
    }

    @Override
    public List<Finding> evaluate(RuleContext context) {
      return keys.stream()
          .map(k -> new Finding(k, "trouble with " + k, "why", "what to do", Map.of("k", k)))
          .toList();
    }
  }

  /** An engine with one rule, every 2 s, default warm-up, no state file or snapshots. */
  public static DetectionEngine engine(
      Supplier<List<WatchedTarget>> targets,
      AlertRule rule,
      AlertListener listener,
      MeterRegistry registry,
      Clock clock) {
    return engine(targets, rule, listener, registry, clock, AlertStateFile.none(), Duration.ZERO);
  }

  /** The same, keeping its firing alerts in {@code stateFile}. */
  public static DetectionEngine engine(
      Supplier<List<WatchedTarget>> targets,
      AlertRule rule,
      AlertListener listener,
      MeterRegistry registry,
      Clock clock,
      AlertStateFile stateFile,
      Duration restoreGrace) {
    return new DetectionEngine(
        SignalSource.watching(targets),
        List.of(rule),
        RuleSettings.DEFAULTS,
        listener,
        EvidenceSnapshots.disabled(),
        registry,
        clock,
        Duration.ofSeconds(2),
        WarmUp.DEFAULT,
        stateFile,
        restoreGrace,
        SignalRecorder.none());
  }
}
