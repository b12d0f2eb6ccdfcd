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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Detection: how often the rules run, what counts as warm-up, where evidence snapshots go, and
 * threshold overrides.
 *
 * @param enabled false to export metrics only
 * @param interval how often every rule is evaluated on every target
 * @param signalPollInterval how often the few JMX values detection needs are read while a target
 *     has no JFR event source (between the full polls of {@code pollInterval}); zero: off
 * @param warmup minimum target uptime before JIT rules may fire (warm-up is extended while the
 *     compile rate keeps falling, up to {@code warmupMax})
 * @param snapshotDirectory where JFR evidence is saved when an alert fires; empty: no snapshots
 * @param snapshotMaxSizeMb size cap of that directory; the oldest snapshots go first
 * @param snapshotWindow how much recent JFR data a snapshot holds (kept by the daemon locally)
 * @param recordDirectory where each target's signal timeline (the samples the rules read, one JSON
 *     line a tick) is written, for replay in tests and for bug reports; empty: not recorded
 * @param rules rule id to threshold name to value, for every target
 * @param targets target name to rule id to threshold name to value
 * @param disabled rule ids switched off
 */
public record DetectionConfig(
    boolean enabled,
    Duration interval,
    Duration signalPollInterval,
    Duration warmup,
    Duration warmupMax,
    Optional<Path> snapshotDirectory,
    long snapshotMaxSizeMb,
    Duration snapshotWindow,
    Optional<Path> recordDirectory,
    Map<String, Map<String, Double>> rules,
    Map<String, Map<String, Map<String, Double>>> targets,
    List<String> disabled) {

  public static final Duration MIN_INTERVAL = Duration.ofMillis(500);

  /** The shortest fast detection poll: each one is a few remote calls into the target. */
  public static final Duration MIN_SIGNAL_POLL_INTERVAL = Duration.ofMillis(500);

  public static final DetectionConfig DEFAULT =
      new DetectionConfig(
          true,
          // 1 s, not the 2 s first planned: measured detection of a thread storm took 8 to 10 s
          // from onset at 2 s (JFR delivery 1 to 2 s, a 5 s sustain window, then the next tick).
          Duration.ofSeconds(1),
          // 1 s: ThreadStorm judges a 5 s window in two halves; a JMX count polled every 10 s
          // (the default pollInterval) fills at most one of them (bench/detection-poll-cost.sh).
          Duration.ofSeconds(1),
          Duration.ofMinutes(3),
          Duration.ofMinutes(10),
          Optional.of(Path.of(System.getProperty("java.io.tmpdir"), "jvm-sentinel-evidence")),
          256,
          Duration.ofMinutes(2),
          Optional.empty(),
          Map.of(),
          Map.of(),
          List.of());

  public DetectionConfig {
    rules = Map.copyOf(rules);
    targets = Map.copyOf(targets);
    disabled = List.copyOf(disabled);
  }

  /**
   * The {@code detection} section: durations, snapshot settings, and that every threshold override
   * names a real rule and a real threshold (with the allowed names in the message).
   *
   * @param targetNames the fixed targets, which per-target overrides must name
   */
  static DetectionConfig read(ConfigNode s, Set<String> targetNames) {
    DetectionConfig d = DEFAULT;
    boolean enabled = s.bool("enabled", d.enabled());
    Duration interval = s.duration("interval", d.interval());
    Duration signalPollInterval = s.duration("signalPollInterval", d.signalPollInterval());
    Duration warmup = s.duration("warmup", d.warmup());
    Duration warmupMax = s.duration("warmupMax", d.warmupMax());
    ConfigNode snapshots = s.section("snapshots");
    String directory = snapshots.text("directory");
    Long maxSizeMb = snapshots.integer("maxSizeMb");
    Duration window = snapshots.duration("window", d.snapshotWindow());
    String recordDirectory = s.text("recordDirectory");
    Map<String, Map<String, Double>> rules =
        s.mapOf("rules", rule -> rule.mapOf(ConfigNode::decimal));
    Map<String, Map<String, Map<String, Double>>> targets =
        s.mapOf("targets", target -> target.mapOf(rule -> rule.mapOf(ConfigNode::decimal)));
    List<String> disabledIds = s.listOf("disabled", ConfigNode::text);

    s.atLeast("interval", interval, MIN_INTERVAL, "");
    s.check(
        signalPollInterval.isZero() || signalPollInterval.compareTo(MIN_SIGNAL_POLL_INTERVAL) >= 0,
        "'detection.signalPollInterval' (%s) must be 0s (off) or at least 500ms",
        signalPollInterval);
    s.notLess("warmupMax", warmupMax, "warmup", warmup);
    Optional<Path> snapshotDirectory =
        directory == null ? d.snapshotDirectory() : directory(s, "snapshots.directory", directory);
    snapshots.check(
        maxSizeMb == null || maxSizeMb >= 1,
        "'detection.snapshots.maxSizeMb' (%s) must be at least 1",
        maxSizeMb);
    snapshots.atLeast("window", window, Duration.ofSeconds(30), "");
    RuleIds ids = new RuleIds(s);
    Map<String, Map<String, Double>> global = ids.overrides("detection.rules", rules);
    Map<String, Map<String, Map<String, Double>>> perTarget = new LinkedHashMap<>();
    Objects.requireNonNullElse(targets, Map.<String, Map<String, Map<String, Double>>>of())
        .forEach(
            (target, overrides) -> {
              s.check(
                  targetNames.contains(target),
                  "'detection.targets.%s': no target is called '%s'; targets: %s",
                  target,
                  target,
                  targetNames);
              perTarget.put(target, ids.overrides("detection.targets." + target, overrides));
            });
    List<String> disabled = new ArrayList<>();
    for (String id : Objects.requireNonNullElse(disabledIds, List.<String>of())) {
      // A YAML null or mapping entry (found by ConfigFuzzTest) is no rule name.
      if (s.check(
              id != null,
              "'detection.disabled': entries must be rule names; rules: %s",
              ids.names())
          && s.check(
              ids.all.containsKey(id),
              "'detection.disabled': unknown rule '%s'; rules: %s",
              id,
              ids.names())) {
        disabled.add(id);
      }
    }
    return new DetectionConfig(
        enabled,
        interval,
        signalPollInterval,
        warmup,
        warmupMax,
        snapshotDirectory,
        maxSizeMb != null ? maxSizeMb : d.snapshotMaxSizeMb(),
        window,
        recordDirectory == null
            ? Optional.empty()
            : directory(s, "recordDirectory", recordDirectory),
        global,
        perTarget,
        disabled);
  }

  /** A directory, relative to the daemon's working directory; blank: none. */
  private static Optional<Path> directory(ConfigNode s, String key, String text) {
    return text.isBlank()
        ? Optional.empty()
        : ConfigPaths.resolve(Path.of(""), text, m -> s.check(false, "'detection.%s' %s", key, m));
  }

  /** The rules by id, to check threshold overrides against. */
  private static final class RuleIds {
    final Map<String, AlertRule> all = new TreeMap<>();
    private final ConfigNode s;

    RuleIds(ConfigNode s) {
      this.s = s;
      Rules.all().forEach(rule -> all.put(rule.id(), rule));
    }

    Set<String> names() {
      return all.keySet();
    }

    Map<String, Map<String, Double>> overrides(String path, Map<String, Map<String, Double>> raw) {
      Map<String, Map<String, Double>> result = new LinkedHashMap<>();
      Objects.requireNonNullElse(raw, Map.<String, Map<String, Double>>of())
          .forEach(
              (ruleId, values) -> {
                AlertRule rule = all.get(ruleId);
                if (!s.check(
                    rule != null, "'%s': unknown rule '%s'; rules: %s", path, ruleId, names())) {
                  return;
                }
                String at = path + "." + ruleId;
                List<String> names = rule.thresholds().stream().map(RuleThreshold::name).toList();
                Map<String, Double> checked = new LinkedHashMap<>();
                Objects.requireNonNullElse(values, Map.<String, Double>of())
                    .forEach(
                        (name, value) -> {
                          if (s.check(
                                  names.contains(name),
                                  "'%s': unknown threshold '%s'; thresholds: %s",
                                  at,
                                  name,
                                  names)
                              && s.check(
                                  value != null && !value.isNaN() && value >= 0,
                                  "'%s.%s' must be a number >= 0",
                                  at,
                                  name)) {
                            checked.put(name, value);
                          }
                        });
                result.put(ruleId, checked);
              });
      return result;
    }
  }
}
