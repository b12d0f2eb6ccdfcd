package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

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
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(step, "step");
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
  }
}
