package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks the {@code otlp} section, applies its defaults and finds the endpoint: the configured one,
 * else the environment variables every OpenTelemetry SDK reads.
 */
final class OtlpValidator {
  static final String METRICS_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";
  static final String ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT";
  // The exporter sets these itself; a second value would corrupt the request.
  private static final Set<String> OWN_HEADERS =
      Set.of("content-type", "content-length", "host", "connection", "user-agent");

  private final Problems problems;
  private final Function<String, String> env;
  private final SecretKeys secrets;

  OtlpValidator(Problems problems, Function<String, String> env, SecretKeys secrets) {
    this.problems = problems;
    this.env = env;
    this.secrets = secrets;
  }

  OtlpConfig validate(ConfigDocument.Otlp raw) {
    OtlpConfig d = OtlpConfig.DISABLED;
    if (raw == null) {
      return d;
    }
    boolean enabled = raw.enabled() != null ? raw.enabled() : d.enabled();
    URI endpoint =
        raw.endpoint() != null
            ? url("'otlp.endpoint'", raw.endpoint())
            // A disabled export must not fail on environment variables it will never use.
            : enabled && !problems.unreadable("otlp.endpoint") ? fromEnv() : d.endpoint();
    Duration step = atLeast("step", raw.step(), d.step(), OtlpConfig.MIN_STEP);
    Duration connect =
        atLeast("connectTimeout", raw.connectTimeout(), d.connectTimeout(), Duration.ofMillis(1));
    Duration read =
        atLeast("readTimeout", raw.readTimeout(), d.readTimeout(), Duration.ofMillis(1));
    if (read.compareTo(step) > 0) {
      problems.add(
          "'otlp.readTimeout' ("
              + Durations.format(read)
              + ") must not be longer than 'otlp.step' ("
              + Durations.format(step)
              + "), or a slow endpoint would delay the next push");
    }
    return new OtlpConfig(
        enabled,
        endpoint,
        step,
        connect,
        read,
        temporality(raw.temporality()),
        headers(raw.headers()),
        resourceAttributes(raw.resourceAttributes()));
  }

  private URI fromEnv() {
    String metrics = env.apply(METRICS_ENDPOINT_ENV);
    if (metrics != null && !metrics.isBlank()) {
      return url("environment variable " + METRICS_ENDPOINT_ENV, metrics.trim());
    }
    String base = env.apply(ENDPOINT_ENV);
    if (base != null && !base.isBlank()) {
      // The SDK rule: the general endpoint is a base URL, the signal's path is appended.
      String trimmed = base.trim().replaceFirst("/+$", "");
      return url("environment variable " + ENDPOINT_ENV, trimmed + "/v1/metrics");
    }
    return OtlpConfig.DEFAULT_ENDPOINT;
  }

  private URI url(String where, String text) {
    return AlertsValidator.parseUrl(text)
        .orElseGet(
            () -> {
              problems.add(
                  where
                      + " must be an absolute http or https URL, such as"
                      + " http://otel-collector:4318/v1/metrics");
              return OtlpConfig.DEFAULT_ENDPOINT;
            });
  }

  private Duration atLeast(String key, Duration value, Duration fallback, Duration min) {
    if (value == null) {
      return fallback;
    }
    if (value.compareTo(min) < 0) {
      problems.add("'otlp." + key + "' must be at least " + Durations.format(min));
      return fallback;
    }
    return value;
  }

  private OtlpConfig.Temporality temporality(String text) {
    if (text == null) {
      return OtlpConfig.Temporality.CUMULATIVE;
    }
    try {
      return OtlpConfig.Temporality.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      problems.add(
          "'otlp.temporality' (\"" + text + "\") must be 'cumulative' (the default) or 'delta'");
      return OtlpConfig.Temporality.CUMULATIVE;
    }
  }

  private Map<String, Secret> headers(Map<String, ConfigDocument.OtlpHeader> raw) {
    Map<String, Secret> headers = new LinkedHashMap<>();
    if (raw == null) {
      return headers;
    }
    raw.forEach((name, header) -> header(name, header).ifPresent(v -> headers.put(name, v)));
    return headers;
  }

  private Optional<Secret> header(String name, ConfigDocument.OtlpHeader header) {
    String path = "otlp.headers." + name;
    if (problems.unreadable(path)) {
      return Optional.empty();
    }
    if (!AlertsValidator.HEADER_NAME.matcher(name).matches()) {
      problems.add("'otlp.headers': '" + name + "' is not a valid HTTP header name");
      return Optional.empty();
    }
    if (OWN_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      problems.add("'" + path + "': the exporter sets this header itself");
      return Optional.empty();
    }
    if (header == null
        || (header.value() == null && header.valueEnv() == null && header.valueFile() == null)) {
      problems.add("'" + path + "' needs 'value', 'valueEnv' or 'valueFile'");
      return Optional.empty();
    }
    Optional<Secret> value;
    if (header.value() != null) {
      if (header.valueEnv() != null || header.valueFile() != null) {
        problems.add("'" + path + "': set one of 'value', 'valueEnv' or 'valueFile'");
        return Optional.empty();
      }
      value = header.value().isEmpty() ? Optional.empty() : Optional.of(Secret.of(header.value()));
      if (value.isEmpty()) {
        problems.add("'" + path + ".value' must not be empty");
      }
    } else {
      value = secrets.read(path, "value", header.valueEnv(), header.valueFile());
    }
    return value.filter(
        v -> {
          if (v.value().chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            problems.add("'" + path + "' must not contain line breaks");
            return false;
          }
          return true;
        });
  }

  private Map<String, String> resourceAttributes(Map<String, String> raw) {
    if (raw == null) {
      return Map.of();
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    raw.forEach(
        (key, value) -> {
          String path = "otlp.resourceAttributes." + key;
          if (value != null && !value.isEmpty()) {
            attributes.put(key, value);
          } else if (!problems.unreadable(path)) {
            problems.add("'" + path + "' needs a value");
          }
        });
    return attributes;
  }
}
