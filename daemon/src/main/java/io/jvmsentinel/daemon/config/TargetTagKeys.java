package io.jvmsentinel.daemon.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tag keys every target's series carry, whichever source the target comes from. Prometheus
 * wants one label set per metric name and every target feeds the same names, so a fixed target
 * without a discovery key, or a discovered one without a configured key, gets an empty value (which
 * Prometheus treats as no label, and the DogStatsD and OTLP exports leave out).
 *
 * <p>The set is fixed when the daemon starts: a meter registered under other keys later would be
 * refused by the registry, so a reloaded file may not bring new keys.
 *
 * @param keys in order: the configured targets' keys, then those of each discovery provider
 */
public record TargetTagKeys(List<String> keys) {
  public TargetTagKeys {
    keys = List.copyOf(new LinkedHashSet<>(keys));
  }

  /** The keys of these targets and of the discovery providers that are on. */
  static TargetTagKeys of(Collection<TargetConfig> targets, Collection<List<String>> discovered) {
    Set<String> keys = new LinkedHashSet<>();
    targets.forEach(target -> keys.addAll(target.tags().keySet()));
    discovered.forEach(keys::addAll);
    return new TargetTagKeys(List.copyOf(keys));
  }

  /** The target's tags with every key, in this set's order; a key it lacks has an empty value. */
  public Map<String, String> complete(Map<String, String> tags) {
    Map<String, String> all = new LinkedHashMap<>();
    keys.forEach(key -> all.put(key, tags.getOrDefault(key, "")));
    return all;
  }

  /** Keys of these targets this set does not have, in the order met; empty when all are known. */
  public Set<String> unknown(Collection<TargetConfig> targets) {
    Set<String> unknown = new LinkedHashSet<>();
    targets.forEach(
        target ->
            target.tags().keySet().stream()
                .filter(key -> !keys.contains(key))
                .forEach(unknown::add));
    return unknown;
  }
}
