package io.jvmsentinel.daemon.alert;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Threshold values per rule: each rule's defaults, then the configuration's global overrides, then
 * the overrides of one target. Overrides name a rule id and a threshold name.
 *
 * @param global rule id to threshold name to value, for every target
 * @param perTarget target name to rule id to threshold name to value
 * @param disabled rule ids switched off
 */
public record RuleSettings(
    Map<String, Map<String, Double>> global,
    Map<String, Map<String, Map<String, Double>>> perTarget,
    List<String> disabled) {

  public static final RuleSettings DEFAULTS = new RuleSettings(Map.of(), Map.of(), List.of());

  public RuleSettings {
    global = Map.copyOf(global);
    perTarget = Map.copyOf(perTarget);
    disabled = List.copyOf(disabled);
  }

  /** The thresholds of {@code rule} for {@code target}, every name with a value. */
  public Map<String, Double> thresholds(AlertRule rule, String target) {
    Map<String, Double> values = new HashMap<>();
    for (RuleThreshold threshold : rule.thresholds()) {
      values.put(threshold.name(), threshold.defaultValue());
    }
    values.putAll(global.getOrDefault(rule.id(), Map.of()));
    values.putAll(perTarget.getOrDefault(target, Map.of()).getOrDefault(rule.id(), Map.of()));
    return values;
  }

  public boolean enabled(AlertRule rule) {
    return !disabled.contains(rule.id());
  }
}
