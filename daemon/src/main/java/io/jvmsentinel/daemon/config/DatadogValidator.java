package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Checks the {@code datadog} section, applies its defaults and finds the agent's address: the
 * configured one, else the environment variables the Datadog libraries read.
 */
final class DatadogValidator {
  static final String URL_ENV = "DD_DOGSTATSD_URL";
  static final String HOST_ENV = "DD_AGENT_HOST";
  static final String PORT_ENV = "DD_DOGSTATSD_PORT";

  // Datadog's own tag rules (it lowercases and replaces anything else): a letter first.
  private static final Pattern TAG_KEY = Pattern.compile("[a-zA-Z][a-zA-Z0-9_.\\-/]*");
  private static final Pattern PORT = Pattern.compile("\\d{1,5}");
  // The client adds these from DD_ENV, DD_SERVICE and DD_VERSION to everything it sends.
  private static final Map<String, String> UNIFIED_TAGS =
      Map.of("env", "DD_ENV", "service", "DD_SERVICE", "version", "DD_VERSION");

  private final Problems problems;
  private final Function<String, String> env;

  DatadogValidator(Problems problems, Function<String, String> env) {
    this.problems = problems;
    this.env = env;
  }

  /**
   * @param globalTags the top-level {@code tags}, already on every meter
   */
  DatadogConfig validate(ConfigDocument.Datadog raw, Map<String, String> globalTags) {
    DatadogConfig d = DatadogConfig.DISABLED;
    if (raw == null) {
      return d;
    }
    boolean enabled = raw.enabled() != null ? raw.enabled() : d.enabled();
    DogStatsdAddress address =
        raw.address() != null
            ? raw.address()
            // A disabled export must not fail on environment variables it will never use.
            : enabled && !problems.unreadable("datadog.address") ? fromEnv() : d.address();
    Duration step = raw.step() != null ? raw.step() : d.step();
    if (step.compareTo(DatadogConfig.MIN_STEP) < 0) {
      problems.add(
          "'datadog.step' ("
              + Durations.format(step)
              + ") must be at least "
              + Durations.format(DatadogConfig.MIN_STEP));
    }
    Map<String, String> tags = raw.tags() != null ? raw.tags() : Map.of();
    tags.forEach((key, value) -> checkTag(key, value, globalTags));
    return new DatadogConfig(
        enabled,
        address,
        step,
        tags,
        raw.alerts() != null ? raw.alerts() : d.alerts(),
        raw.agentNames() != null ? raw.agentNames() : d.agentNames());
  }

  /** DD_DOGSTATSD_URL, else DD_AGENT_HOST and DD_DOGSTATSD_PORT, else localhost:8125. */
  private DogStatsdAddress fromEnv() {
    String url = env.apply(URL_ENV);
    if (!isBlank(url)) {
      return parse(url.trim(), "environment variable " + URL_ENV);
    }
    String host = Optional.ofNullable(env.apply(HOST_ENV)).map(String::trim).orElse("");
    String port = Optional.ofNullable(env.apply(PORT_ENV)).map(String::trim).orElse("");
    if (host.isEmpty() && port.isEmpty()) {
      return DogStatsdAddress.DEFAULT;
    }
    if (!port.isEmpty()
        && (!PORT.matcher(port).matches()
            || Integer.parseInt(port) < 1
            || Integer.parseInt(port) > 65535)) {
      problems.add(
          "environment variable " + PORT_ENV + " (\"" + port + "\") is not a port (1..65535)");
      return DogStatsdAddress.DEFAULT;
    }
    String hostPart = host.isEmpty() ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
    return parse(
        "udp://" + hostPart + ":" + (port.isEmpty() ? DogStatsdAddress.DEFAULT_PORT : port),
        "environment variables " + HOST_ENV + "/" + PORT_ENV);
  }

  private DogStatsdAddress parse(String text, String where) {
    try {
      return DogStatsdAddress.parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(where + ": " + e.getMessage());
      return DogStatsdAddress.DEFAULT;
    }
  }

  private void checkTag(String key, String value, Map<String, String> globalTags) {
    String path = "datadog.tags." + key;
    if (problems.unreadable(path)) {
      return;
    }
    if (!TAG_KEY.matcher(key).matches()) {
      problems.add(
          "'datadog.tags': tag key '"
              + key
              + "' is not a valid Datadog tag key; use a letter, then [a-zA-Z0-9_.-/]");
    } else if (List.of(TagRules.RESERVED, "rule", "severity", "key").contains(key)) {
      problems.add(
          "'" + path + "': the daemon sets this tag itself (on meters or on alert events)");
    } else if (globalTags.containsKey(key)) {
      problems.add("'" + path + "': '" + key + "' is a global tag already (top-level 'tags')");
    } else if (UNIFIED_TAGS.containsKey(key) && !isBlank(env.apply(UNIFIED_TAGS.get(key)))) {
      problems.add(
          "'"
              + path
              + "' conflicts with "
              + UNIFIED_TAGS.get(key)
              + ", which the Datadog client sends as the '"
              + key
              + "' tag already");
    }
    if (value == null || value.isEmpty()) {
      problems.add("'" + path + "' needs a value");
    } else if (value.chars().anyMatch(c -> c == ',' || c == '|' || c == '\n' || c == '\r')) {
      // The DogStatsD datagram separates tags with ',' and fields with '|'.
      problems.add("'" + path + "' must not contain ',', '|' or line breaks");
    }
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
