package io.jvmsentinel.daemon.export.otlp;

import io.jvmsentinel.daemon.config.OtlpConfig;
import io.micrometer.registry.otlp.AggregationTemporality;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Our validated {@code otlp} section as Micrometer's OTLP config. What it does not set comes from
 * Micrometer's defaults, which read the standard {@code OTEL_*} environment variables.
 */
final class OtlpSettings implements io.micrometer.registry.otlp.OtlpConfig {
  static final String DEFAULT_SERVICE_NAME = "jvm-sentinel";

  private final OtlpConfig config;
  private final Map<String, String> target;
  private final String serviceName;

  /** The daemon's own resource. */
  OtlpSettings(OtlpConfig config) {
    this(config, Map.of(), DEFAULT_SERVICE_NAME);
  }

  /**
   * @param target a target's resource attributes ({@link TargetResources}), which win over the
   *     configured and environment ones; empty for the daemon's own resource
   * @param serviceName the service.name when neither those nor the configuration set one
   */
  OtlpSettings(OtlpConfig config, Map<String, String> target, String serviceName) {
    this.config = config;
    this.target = Map.copyOf(target);
    this.serviceName = serviceName;
  }

  @Override
  public String get(String key) {
    return null;
  }

  @Override
  public String url() {
    return config.endpoint().toString();
  }

  @Override
  public Duration step() {
    return config.step();
  }

  @Override
  public AggregationTemporality aggregationTemporality() {
    return config.temporality() == OtlpConfig.Temporality.DELTA
        ? AggregationTemporality.DELTA
        : AggregationTemporality.CUMULATIVE;
  }

  // The OpenTelemetry JVM conventions measure durations in seconds.
  @Override
  public TimeUnit baseTimeUnit() {
    return TimeUnit.SECONDS;
  }

  @Override
  public Map<String, String> headers() {
    if (config.headers().isEmpty()) {
      return io.micrometer.registry.otlp.OtlpConfig.super.headers();
    }
    Map<String, String> headers = new LinkedHashMap<>();
    config.headers().forEach((name, secret) -> headers.put(name, secret.value()));
    return headers;
  }

  @Override
  public Map<String, String> resourceAttributes() {
    Map<String, String> attributes =
        new LinkedHashMap<>(io.micrometer.registry.otlp.OtlpConfig.super.resourceAttributes());
    attributes.putAll(config.resourceAttributes());
    attributes.putAll(target);
    attributes.putIfAbsent("service.name", serviceName);
    return attributes;
  }
}
