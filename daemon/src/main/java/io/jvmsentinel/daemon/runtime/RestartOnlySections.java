package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.daemon.config.SentinelConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** The configuration sections a reload does not apply, so the log can name those that changed. */
final class RestartOnlySections {
  private static final Map<String, Function<SentinelConfig, Object>> SECTIONS = sections();

  private RestartOnlySections() {}

  private static Map<String, Function<SentinelConfig, Object>> sections() {
    Map<String, Function<SentinelConfig, Object>> sections = new LinkedHashMap<>();
    sections.put("http", SentinelConfig::http);
    sections.put("tags", SentinelConfig::tags);
    sections.put("connection", SentinelConfig::connection);
    sections.put("jfr", SentinelConfig::jfr);
    sections.put("alerts", SentinelConfig::alerts);
    sections.put("detection", SentinelConfig::detection);
    sections.put("datadog", SentinelConfig::datadog);
    sections.put("otlp", SentinelConfig::otlp);
    sections.put("discovery.local", SentinelConfig::localDiscovery);
    sections.put("discovery.kubernetes", SentinelConfig::kubernetesDiscovery);
    sections.put("discovery.maxTargets", SentinelConfig::maxTargets);
    return sections;
  }

  /** The sections other than targets whose settings differ between the two, in file order. */
  static List<String> changed(SentinelConfig running, SentinelConfig reloaded) {
    List<String> changed = new ArrayList<>();
    SECTIONS.forEach(
        (name, section) -> {
          if (!Objects.equals(section.apply(running), section.apply(reloaded))) {
            changed.add(name);
          }
        });
    return changed;
  }
}
