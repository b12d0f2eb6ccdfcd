package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

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
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(temporality, "temporality");
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    resourceAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(resourceAttributes));
  }
}
