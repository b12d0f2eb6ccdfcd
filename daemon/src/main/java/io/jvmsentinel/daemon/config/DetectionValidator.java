package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.rules.Rules;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the {@code detection} section: durations, snapshot settings, and that every threshold
 * override names a real rule and a real threshold (with the allowed names in the message).
 */
final class DetectionValidator {
  private final Problems problems;
  private final Map<String, AlertRule> rules = new TreeMap<>();

  DetectionValidator(Problems problems) {
    this.problems = problems;
    Rules.all().forEach(rule -> rules.put(rule.id(), rule));
  }

  DetectionConfig validate(ConfigDocument.Detection raw, Set<String> targetNames) {
    DetectionConfig d = DetectionConfig.DEFAULT;
    if (raw == null) {
      return d;
    }
    Duration interval = raw.interval() != null ? raw.interval() : d.interval();
    if (interval.compareTo(DetectionConfig.MIN_INTERVAL) < 0) {
      problems.add(
          "'detection.interval' (" + Durations.format(interval) + ") must be at least 500ms");
    }
    Duration signalPollInterval =
        raw.signalPollInterval() != null ? raw.signalPollInterval() : d.signalPollInterval();
    if (!signalPollInterval.isZero()
        && signalPollInterval.compareTo(DetectionConfig.MIN_SIGNAL_POLL_INTERVAL) < 0) {
      problems.add(
          "'detection.signalPollInterval' ("
              + Durations.format(signalPollInterval)
              + ") must be 0s (off) or at least 500ms");
    }
    Duration warmup = raw.warmup() != null ? raw.warmup() : d.warmup();
    Duration warmupMax = raw.warmupMax() != null ? raw.warmupMax() : d.warmupMax();
    if (warmupMax.compareTo(warmup) < 0) {
      problems.add(
          "'detection.warmupMax' ("
              + Durations.format(warmupMax)
              + ") must not be less than 'detection.warmup' ("
              + Durations.format(warmup)
              + ")");
    }
    ConfigDocument.Snapshots snapshots = raw.snapshots();
    Optional<Path> directory = d.snapshotDirectory();
    long maxSizeMb = d.snapshotMaxSizeMb();
    Duration window = d.snapshotWindow();
    if (snapshots != null) {
      if (snapshots.directory() != null) {
        directory =
            snapshots.directory().isBlank()
                ? Optional.empty()
                : ConfigPaths.resolve(
                    Path.of(""),
                    snapshots.directory(),
                    m -> problems.add("'detection.snapshots.directory' " + m));
      }
      if (snapshots.maxSizeMb() != null) {
        maxSizeMb = snapshots.maxSizeMb();
        if (maxSizeMb < 1) {
          problems.add("'detection.snapshots.maxSizeMb' (" + maxSizeMb + ") must be at least 1");
        }
      }
      if (snapshots.window() != null) {
        window = snapshots.window();
        if (window.compareTo(Duration.ofSeconds(30)) < 0) {
          problems.add(
              "'detection.snapshots.window' ("
                  + Durations.format(window)
                  + ") must be at least 30s");
        }
      }
    }
    Map<String, Map<String, Double>> global = overrides("detection.rules", raw.rules());
    Map<String, Map<String, Map<String, Double>>> perTarget = new LinkedHashMap<>();
    if (raw.targets() != null) {
      raw.targets()
          .forEach(
              (target, overrides) -> {
                if (!targetNames.contains(target)) {
                  problems.add(
                      "'detection.targets."
                          + target
                          + "': no target is called '"
                          + target
                          + "'; targets: "
                          + targetNames);
                }
                perTarget.put(target, overrides("detection.targets." + target, overrides));
              });
    }
    List<String> disabled = new ArrayList<>();
    if (raw.disabled() != null) {
      for (String id : raw.disabled()) {
        if (id == null) {
          // A YAML null or mapping entry (found by ConfigFuzzTest): not a rule name.
          problems.add(
              "'detection.disabled': entries must be rule names; rules: " + rules.keySet());
        } else if (rules.containsKey(id)) {
          disabled.add(id);
        } else {
          problems.add("'detection.disabled': unknown rule '" + id + "'; rules: " + rules.keySet());
        }
      }
    }
    return new DetectionConfig(
        raw.enabled() != null ? raw.enabled() : d.enabled(),
        interval,
        signalPollInterval,
        warmup,
        warmupMax,
        directory,
        maxSizeMb,
        window,
        raw.recordDirectory() == null || raw.recordDirectory().isBlank()
            ? Optional.empty()
            : ConfigPaths.resolve(
                Path.of(""),
                raw.recordDirectory(),
                m -> problems.add("'detection.recordDirectory' " + m)),
        global,
        perTarget,
        disabled);
  }

  private Map<String, Map<String, Double>> overrides(
      String path, Map<String, Map<String, Double>> raw) {
    Map<String, Map<String, Double>> result = new LinkedHashMap<>();
    if (raw == null) {
      return result;
    }
    raw.forEach(
        (ruleId, values) -> {
          AlertRule rule = rules.get(ruleId);
          if (rule == null) {
            problems.add("'" + path + "': unknown rule '" + ruleId + "'; rules: " + rules.keySet());
            return;
          }
          Map<String, Double> checked = new LinkedHashMap<>();
          List<String> names = rule.thresholds().stream().map(RuleThreshold::name).toList();
          (values == null ? Map.<String, Double>of() : values)
              .forEach(
                  (name, value) -> {
                    if (!names.contains(name)) {
                      problems.add(
                          "'"
                              + path
                              + "."
                              + ruleId
                              + "': unknown threshold '"
                              + name
                              + "'; thresholds: "
                              + names);
                    } else if (value == null || value.isNaN() || value < 0) {
                      problems.add(
                          "'" + path + "." + ruleId + "." + name + "' must be a number >= 0");
                    } else {
                      checked.put(name, value);
                    }
                  });
          result.put(ruleId, checked);
        });
    return result;
  }
}
