package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Checks the {@code discovery} section and applies its defaults. */
final class DiscoveryValidator {
  private final Problems problems;

  DiscoveryValidator(Problems problems) {
    this.problems = problems;
  }

  Optional<LocalDiscoveryConfig> validate(ConfigDocument.Discovery raw) {
    if (raw == null || raw.local() == null) {
      return Optional.empty();
    }
    ConfigDocument.LocalDiscovery local = raw.local();
    if (Boolean.FALSE.equals(local.enabled())) {
      return Optional.empty();
    }
    return Optional.of(
        new LocalDiscoveryConfig(
            atLeast(
                "interval",
                local.interval(),
                LocalDiscoveryConfig.DEFAULT_INTERVAL,
                LocalDiscoveryConfig.MIN_INTERVAL),
            atLeast(
                "pollInterval",
                local.pollInterval(),
                TargetConfig.DEFAULT_POLL_INTERVAL,
                TargetConfig.MIN_POLL_INTERVAL),
            matches("include", local.include()),
            matches("exclude", local.exclude()),
            jmxAgent(local.jmxAgent()),
            Boolean.TRUE.equals(local.allowHostNetwork())));
  }

  private LocalDiscoveryConfig.JmxAgent jmxAgent(String raw) {
    if (raw == null) {
      return LocalDiscoveryConfig.JmxAgent.AUTO;
    }
    for (LocalDiscoveryConfig.JmxAgent agent : LocalDiscoveryConfig.JmxAgent.values()) {
      if (agent.name().equalsIgnoreCase(raw)) {
        return agent;
      }
    }
    problems.add(
        "'discovery.local.jmxAgent' must be 'auto' (the local agent for JVMs in the daemon's"
            + " network, a password-protected remote agent for JVMs in other pods) or 'remote'"
            + " (the remote agent for every JVM), got '"
            + raw
            + "'");
    return LocalDiscoveryConfig.JmxAgent.AUTO;
  }

  private Duration atLeast(String key, Duration value, Duration fallback, Duration min) {
    if (value == null) {
      return fallback;
    }
    if (value.compareTo(min) < 0) {
      problems.add(
          "'discovery.local."
              + key
              + "' must be at least "
              + Durations.format(min)
              + ", got "
              + Durations.format(value));
      return fallback;
    }
    return value;
  }

  private List<JvmMatch> matches(String key, List<ConfigDocument.JvmMatch> raw) {
    List<JvmMatch> matches = new ArrayList<>();
    if (raw == null) {
      return matches;
    }
    for (int i = 0; i < raw.size(); i++) {
      ConfigDocument.JvmMatch entry = raw.get(i);
      String path = "discovery.local." + key + "[" + i + "]";
      if (entry == null
          || (entry.mainClass() == null && entry.commandLine() == null && entry.user() == null)) {
        if (!problems.unreadable(path)) { // a bad pattern was reported already
          problems.add("'" + path + "' needs at least one of mainClass, commandLine, user");
        }
        continue;
      }
      matches.add(
          new JvmMatch(
              Optional.ofNullable(entry.mainClass()),
              Optional.ofNullable(entry.commandLine()),
              Optional.ofNullable(entry.user())));
    }
    return matches;
  }
}
