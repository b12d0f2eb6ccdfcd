package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A detection rule in the spirit of JDK Mission Control's rules: a stable id, the thresholds it
 * reads (each with a default, a unit and a description), a severity, and an evaluation over the
 * target's recent signal history that returns a finding per key whose condition holds. Rules keep
 * no state of their own beyond what the history holds.
 */
public interface AlertRule {

  /** Stable id: the {@code alert} label, the runbook file name, the config key. */
  String id();

  Severity severity();

  /** One sentence: what the rule detects. */
  String description();

  List<RuleThreshold> thresholds();

  /** How long a condition must hold before the alert fires (0: at once). */
  default Duration pendingFor() {
    return Duration.ZERO;
  }

  /**
   * How long a condition must stay clear before a firing alert resolves. Rules judge a firing alert
   * on the latest part of their window, so 15 s bridges a lull within an incident and still
   * resolves within 30 s of its cause stopping (issue 26).
   */
  default Duration clearFor() {
    return Duration.ofSeconds(15);
  }

  /**
   * Whether the rule reads signals only a JFR stream gives. While the daemon has closed the stream
   * itself during a heavy thread storm ({@code jfr.stormPauseAboveRate}), such a rule is not
   * evaluated: its alerts neither fire nor resolve for lack of data, and pick up when the stream
   * reopens.
   */
  default boolean needsJfr() {
    return false;
  }

  /**
   * What the rule reads, and how often each input needs a fresh reading for the rule to judge at
   * all, with the thresholds in effect for one target ({@code thresholds}: every threshold's name
   * with its value): a window of seconds cannot be judged on a value polled every 10 s. {@link
   * RuleCoverage} compares it with what the target delivers and says per target whether the rule is
   * judged, and if not why ({@code /api/v1/targets}). An input only JFR events carry ({@link
   * RuleInput.Signal#jfrOnly}) is what {@link #needsJfr} means.
   */
  List<RuleInput> inputs(Map<String, Double> thresholds);

  /** The keys whose condition holds now. {@code context} knows which keys are already firing. */
  List<Finding> evaluate(RuleContext context);

  /** Where the runbook lives, relative to the repository root. */
  default String runbook() {
    return "alerts/runbooks/" + id() + ".md";
  }
}
