package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Export to a Datadog Agent over DogStatsD: every meter of the registry (the same meters Prometheus
 * scrapes) every {@code step}, and, with {@code alerts}, an event and a service check per alert
 * notification.
 *
 * <p>Unified service tags ({@code env}, {@code service}, {@code version}) are not configured here:
 * the DogStatsD client reads {@code DD_ENV}, {@code DD_SERVICE} and {@code DD_VERSION} itself and
 * adds them to everything it sends.
 *
 * @param enabled false (the default) sends nothing to Datadog
 * @param address the agent: the configured one, else {@code DD_DOGSTATSD_URL}, else {@code
 *     DD_AGENT_HOST}/{@code DD_DOGSTATSD_PORT}, else {@code udp://localhost:8125}
 * @param step how often the meters are sent; counters and timers send what changed in the step
 * @param tags extra tags on everything sent to Datadog (besides the global {@code tags}, which are
 *     on every meter already)
 * @param alerts true to send alert notifications as Datadog events and service checks
 */
public record DatadogConfig(
    boolean enabled,
    DogStatsdAddress address,
    Duration step,
    Map<String, String> tags,
    boolean alerts,
    boolean agentNames) {
  public static final Duration DEFAULT_STEP = Duration.ofSeconds(10);
  public static final Duration MIN_STEP = Duration.ofSeconds(1);

  /** No {@code datadog:} section. */
  public static final DatadogConfig DISABLED =
      new DatadogConfig(false, DogStatsdAddress.DEFAULT, DEFAULT_STEP, Map.of(), true, false);

  public DatadogConfig {
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
  }

  static final String URL_ENV = "DD_DOGSTATSD_URL";
  static final String HOST_ENV = "DD_AGENT_HOST";
  static final String PORT_ENV = "DD_DOGSTATSD_PORT";

  // Datadog's own tag rules (it lowercases and replaces anything else): a letter first.
  private static final Pattern TAG_KEY = Pattern.compile("[a-zA-Z][a-zA-Z0-9_.\\-/]*");
  private static final Pattern PORT = Pattern.compile("\\d{1,5}");
  // The client adds these from DD_ENV, DD_SERVICE and DD_VERSION to everything it sends.
  private static final Map<String, String> UNIFIED_TAGS =
      Map.of("env", "DD_ENV", "service", "DD_SERVICE", "version", "DD_VERSION");

  /**
   * The {@code datadog} section with its defaults; the agent's address is the configured one, else
   * the one of the environment variables the Datadog libraries read.
   *
   * @param globalTags the top-level {@code tags}, already on every meter
   */
  static DatadogConfig read(ConfigNode s, Map<String, String> globalTags) {
    DatadogConfig d = DISABLED;
    boolean enabled = s.bool("enabled", d.enabled());
    DogStatsdAddress written =
        s.child("address").parsed("udp://host:port or unix:///path", DogStatsdAddress::parse);
    Duration step = s.duration("step", d.step());
    Map<String, String> tags = Objects.requireNonNullElse(s.texts("tags"), Map.of());
    boolean alerts = s.bool("alerts", d.alerts());
    boolean agentNames = s.bool("agentNames", d.agentNames());
    DogStatsdAddress address =
        written != null
            ? written
            // A disabled export must not fail on environment variables it will never use.
            : enabled && !s.unreadable("address") ? fromEnv(s) : d.address();
    s.atLeast("step", step, MIN_STEP, "");
    tags.forEach((key, value) -> checkTag(s, key, value, globalTags));
    return new DatadogConfig(enabled, address, step, tags, alerts, agentNames);
  }

  /** DD_DOGSTATSD_URL, else DD_AGENT_HOST and DD_DOGSTATSD_PORT, else localhost:8125. */
  private static DogStatsdAddress fromEnv(ConfigNode s) {
    Function<String, String> env = s.reading.env;
    String url = env.apply(URL_ENV);
    if (!isBlank(url)) {
      return parse(s, url.trim(), "environment variable " + URL_ENV);
    }
    String host = Objects.requireNonNullElse(env.apply(HOST_ENV), "").trim();
    String port = Objects.requireNonNullElse(env.apply(PORT_ENV), "").trim();
    if (host.isEmpty() && port.isEmpty()) {
      return DogStatsdAddress.DEFAULT;
    }
    if (!s.check(
        port.isEmpty()
            || (PORT.matcher(port).matches()
                && Integer.parseInt(port) >= 1
                && Integer.parseInt(port) <= 65535),
        "environment variable %s (\"%s\") is not a port (1..65535)",
        PORT_ENV,
        port)) {
      return DogStatsdAddress.DEFAULT;
    }
    String hostPart = host.isEmpty() ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
    return parse(
        s,
        "udp://" + hostPart + ":" + (port.isEmpty() ? DogStatsdAddress.DEFAULT_PORT : port),
        "environment variables " + HOST_ENV + "/" + PORT_ENV);
  }

  private static DogStatsdAddress parse(ConfigNode s, String text, String where) {
    try {
      return DogStatsdAddress.parse(text);
    } catch (IllegalArgumentException e) {
      s.check(false, "%s: %s", where, e.getMessage());
      return DogStatsdAddress.DEFAULT;
    }
  }

  private static void checkTag(
      ConfigNode s, String key, String value, Map<String, String> globalTags) {
    if (!s.unreadable("tags." + key)) {
      checkKey(s, key, globalTags);
      String path = "datadog.tags." + key;
      // The DogStatsD datagram separates tags with ',' and fields with '|'.
      if (s.check(value != null && !value.isEmpty(), "'%s' needs a value", path)) {
        s.check(
            value.chars().noneMatch(c -> c == ',' || c == '|' || c == '\n' || c == '\r'),
            "'%s' must not contain ',', '|' or line breaks",
            path);
      }
    }
  }

  /** The first problem of a tag key, if any. */
  private static boolean checkKey(ConfigNode s, String key, Map<String, String> globalTags) {
    String path = "datadog.tags." + key;
    String unified = UNIFIED_TAGS.get(key);
    return s.check(
            TAG_KEY.matcher(key).matches(),
            "'datadog.tags': tag key '%s' is not a valid Datadog tag key; use a letter, then"
                + " [a-zA-Z0-9_.-/]",
            key)
        && s.check(
            !List.of(TagRules.RESERVED, "rule", "severity", "key").contains(key),
            "'%s': the daemon sets this tag itself (on meters or on alert events)",
            path)
        && s.check(
            !globalTags.containsKey(key),
            "'%s': '%s' is a global tag already (top-level 'tags')",
            path,
            key)
        && s.check(
            unified == null || isBlank(s.reading.env.apply(unified)),
            "'%s' conflicts with %s, which the Datadog client sends as the '%s' tag already",
            path,
            unified,
            key);
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
