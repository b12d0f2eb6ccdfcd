package io.jvmsentinel.daemon.alert;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * What a rule sees when it evaluates one target: the signal history (a snapshot that cannot change
 * while the rule reads it), its thresholds (defaults with this target's overrides applied), the
 * keys it is already firing for (to apply resolve thresholds: hysteresis) and where the target is
 * in its JIT warm-up. The history is all a rule reads: its samples carry the per-tick tables
 * (creator sites, deoptimised and recompiled methods) and the target's facts, so a rule is a
 * function of its inputs and a recorded timeline replays exactly.
 */
public record RuleContext(
    String target,
    SignalWindow history,
    Map<String, Double> thresholds,
    Set<String> firingKeys,
    WarmUp.Phase warmUp,
    Instant now) {

  /** A context over the history as it is now. */
  public RuleContext(
      String target,
      SignalHistory history,
      Map<String, Double> thresholds,
      Set<String> firingKeys,
      WarmUp.Phase warmUp,
      Instant now) {
    this(target, history.snapshot(), thresholds, firingKeys, warmUp, now);
  }

  /** Whether the target is still in its JIT warm-up, starting or settling. */
  public boolean warmingUp() {
    return warmUp.warmingUp();
  }

  public double threshold(String name) {
    Double value = thresholds.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no threshold '" + name + "'");
    }
    return value;
  }

  public boolean firing(String key) {
    return firingKeys.contains(key);
  }
}
