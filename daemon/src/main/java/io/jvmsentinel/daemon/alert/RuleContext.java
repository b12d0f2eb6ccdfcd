package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.daemon.WatchedTarget;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * What a rule sees when it evaluates one target: the signal history, its thresholds (defaults with
 * this target's overrides applied), the keys it is already firing for (to apply resolve thresholds:
 * hysteresis), whether the target is still warming up, and the target itself for evidence (creator
 * sites, deoptimised methods).
 */
public record RuleContext(
    String target,
    SignalHistory history,
    Map<String, Double> thresholds,
    Set<String> firingKeys,
    boolean warmingUp,
    Instant now,
    WatchedTarget watched) {

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
