package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Push of every meter to an OpenTelemetry Collector or backend over OTLP/HTTP (protobuf), with
 * names of the OpenTelemetry JVM semantic conventions where they exist (see docs/opentelemetry.md).
 *
 * @param enabled false (the default) sends nothing
 * @param endpoint the OTLP/HTTP metrics URL: the configured one, else {@code
 *     OTEL_EXPORTER_OTLP_METRICS_ENDPOINT}, else {@code OTEL_EXPORTER_OTLP_ENDPOINT} plus {@code
 *     /v1/metrics}, else {@code http://localhost:4318/v1/metrics}
 * @param step how often the meters are pushed
 * @param connectTimeout how long to wait for the connection to the endpoint
 * @param readTimeout how long to wait for the endpoint's answer
 * @param temporality {@code cumulative} (the default) or {@code delta} sums and histograms
 * @param headers request headers, values read from the file or environment when they are secrets;
 *     none configured means {@code OTEL_EXPORTER_OTLP_HEADERS}/{@code
 *     OTEL_EXPORTER_OTLP_METRICS_HEADERS}
 * @param resourceAttributes added over {@code OTEL_RESOURCE_ATTRIBUTES} and {@code
 *     OTEL_SERVICE_NAME}; {@code service.name} is {@code jvm-sentinel} when none of them sets it
 */
public record OtlpConfig(
    boolean enabled,
    URI endpoint,
    Duration step,
    Duration connectTimeout,
    Duration readTimeout,
    Temporality temporality,
    Map<String, Secret> headers,
    Map<String, String> resourceAttributes) {
  public static final URI DEFAULT_ENDPOINT = URI.create("http://localhost:4318/v1/metrics");
  public static final Duration DEFAULT_STEP = Duration.ofSeconds(60);
  public static final Duration MIN_STEP = Duration.ofSeconds(1);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);

  /** No {@code otlp:} section. */
  public static final OtlpConfig DISABLED =
      new OtlpConfig(
          false,
          DEFAULT_ENDPOINT,
          DEFAULT_STEP,
          DEFAULT_CONNECT_TIMEOUT,
          DEFAULT_READ_TIMEOUT,
          Temporality.CUMULATIVE,
          Map.of(),
          Map.of());

  /** How sums and histograms are reported: running totals, or what changed in each step. */
  public enum Temporality {
    CUMULATIVE,
    DELTA
  }

  public OtlpConfig {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    resourceAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(resourceAttributes));
  }

  static final String METRICS_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";
  static final String ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT";
  // The exporter sets these itself; a second value would corrupt the request.
  private static final Set<String> OWN_HEADERS =
      Set.of("content-type", "content-length", "host", "connection", "user-agent");

  /** One header as written: a plain {@code value}, or a secret from {@code valueEnv|valueFile}. */
  private record Header(ConfigNode node, String value, ConfigNode.SecretRef secret) {
    static Header read(ConfigNode entry) {
      ConfigNode node = entry.section();
      return new Header(node, node.text("value"), node.secretRef("value"));
    }
  }

  /**
   * The {@code otlp} section with its defaults; the endpoint is the configured one, else the one of
   * the environment variables every OpenTelemetry SDK reads.
   */
  static OtlpConfig read(ConfigNode s) {
    OtlpConfig d = DISABLED;
    boolean enabled = s.bool("enabled", d.enabled());
    String endpointText = s.text("endpoint");
    Duration step = s.duration("step", d.step());
    Duration connect = s.duration("connectTimeout", d.connectTimeout());
    Duration read = s.duration("readTimeout", d.readTimeout());
    String temporality = s.text("temporality");
    Map<String, Header> headers = s.mapOf("headers", Header::read);
    Map<String, String> attributes = s.texts("resourceAttributes");

    URI endpoint =
        endpointText != null
            ? url(s, "'otlp.endpoint'", endpointText)
            // A disabled export must not fail on environment variables it will never use.
            : enabled && !s.unreadable("endpoint") ? fromEnv(s) : d.endpoint();
    step = s.minimum("step", step, MIN_STEP) ? step : d.step();
    connect =
        s.minimum("connectTimeout", connect, Duration.ofMillis(1)) ? connect : d.connectTimeout();
    read = s.minimum("readTimeout", read, Duration.ofMillis(1)) ? read : d.readTimeout();
    s.check(
        read.compareTo(step) <= 0,
        "'otlp.readTimeout' (%s) must not be longer than 'otlp.step' (%s), or a slow endpoint"
            + " would delay the next push",
        read,
        step);
    return new OtlpConfig(
        enabled,
        endpoint,
        step,
        connect,
        read,
        s.oneOf(
            temporality,
            Temporality.values(),
            Temporality.CUMULATIVE,
            text ->
                "'otlp.temporality' (\"%s\") must be 'cumulative' (the default) or 'delta'"
                    .formatted(text)),
        headers(s, headers),
        resourceAttributes(s, attributes));
  }

  private static URI fromEnv(ConfigNode s) {
    String metrics = s.reading.env.apply(METRICS_ENDPOINT_ENV);
    if (metrics != null && !metrics.isBlank()) {
      return url(s, "environment variable " + METRICS_ENDPOINT_ENV, metrics.trim());
    }
    String base = s.reading.env.apply(ENDPOINT_ENV);
    if (base != null && !base.isBlank()) {
      // The SDK rule: the general endpoint is a base URL, the signal's path is appended.
      String trimmed = base.trim().replaceFirst("/+$", "");
      return url(s, "environment variable " + ENDPOINT_ENV, trimmed + "/v1/metrics");
    }
    return DEFAULT_ENDPOINT;
  }

  private static URI url(ConfigNode s, String where, String text) {
    Optional<URI> url = ConfigNode.httpUrl(text);
    s.check(
        url.isPresent(),
        "%s must be an absolute http or https URL, such as http://otel-collector:4318/v1/metrics",
        where);
    return url.orElse(DEFAULT_ENDPOINT);
  }

  private static Map<String, Secret> headers(ConfigNode s, Map<String, Header> raw) {
    Map<String, Secret> headers = new LinkedHashMap<>();
    if (raw != null) {
      raw.forEach((name, header) -> header(s, name, header).ifPresent(v -> headers.put(name, v)));
    }
    return headers;
  }

  private static Optional<Secret> header(ConfigNode s, String name, Header header) {
    String path = "otlp.headers." + name;
    if (s.unreadable("headers." + name)
        || !s.check(
            AlertsConfig.HEADER_NAME.matcher(name).matches(),
            "'otlp.headers': '%s' is not a valid HTTP header name",
            name)
        || !s.check(
            !OWN_HEADERS.contains(name.toLowerCase(Locale.ROOT)),
            "'%s': the exporter sets this header itself",
            path)
        || !s.check(
            header.value() != null || header.secret().written(),
            "'%s' needs 'value', 'valueEnv' or 'valueFile'",
            path)
        || !s.check(
            header.value() == null || !header.secret().written(),
            "'%s': set one of 'value', 'valueEnv' or 'valueFile'",
            path)) {
      return Optional.empty();
    }
    Optional<Secret> value =
        header.value() == null
            ? header.secret().read()
            : Optional.of(header.value())
                .filter(v -> s.check(!v.isEmpty(), "'%s.value' must not be empty", path))
                .map(Secret::of);
    return value.filter(
        v ->
            s.check(
                v.value().chars().noneMatch(c -> c == '\r' || c == '\n' || c == 0),
                "'%s' must not contain line breaks",
                path));
  }

  private static Map<String, String> resourceAttributes(ConfigNode s, Map<String, String> raw) {
    Map<String, String> attributes = new LinkedHashMap<>();
    (raw == null ? Map.<String, String>of() : raw)
        .forEach(
            (key, value) -> {
              if (value != null && !value.isEmpty()) {
                attributes.put(key, value);
              } else if (!s.unreadable("resourceAttributes." + key)) {
                s.check(false, "'otlp.resourceAttributes.%s' needs a value", key);
              }
            });
    return attributes;
  }
}
