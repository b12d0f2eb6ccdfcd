package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The daemon cannot reach the target: it is down, hung, or its JMX port is closed. */
public final class TargetDownRule implements AlertRule {
  static final String DOWN_FOR = "downForSeconds";

  @Override
  public String id() {
    return "TargetDown";
  }

  @Override
  public Severity severity() {
    return Severity.CRITICAL;
  }

  @Override
  public String description() {
    return "The daemon has not been able to reach the target for a while.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(DOWN_FOR, 60, "seconds", "How long the target must be unreachable"));
  }

  @Override
  public Duration clearFor() {
    return Duration.ZERO;
  }

  /** The connection's state, known as it changes. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    return List.of(RuleInput.anyCadence(Signal.CONNECTION));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    SignalSample latest = context.history().latest().orElse(null);
    if (latest == null || latest.up() || latest.downSeconds() < context.threshold(DOWN_FOR)) {
      return List.of();
    }
    SignalSample.Target status = latest.details().target();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("address", status.address());
    evidence.put("downSince", status.since().toString());
    evidence.put("lastError", status.lastError());
    evidence.put("connectAttempts", status.connectAttempts());
    return List.of(
        new Finding(
            "",
            "Target "
                + context.target()
                + " unreachable for "
                + Math.round(latest.downSeconds())
                + " s: "
                + status.lastError(),
            "The daemon has not held a working JMX connection to "
                + status.address()
                + " since "
                + status.since()
                + ". The JVM may be down, hung (a poll timed out), or its JMX port closed or"
                + " firewalled; the daemon keeps reconnecting with backoff.",
            "Check the process and its logs; check the JMX port and credentials; a hung JVM:"
                + " take a thread dump (jstack -F / jcmd) before restarting it.",
            evidence));
  }
}
