package io.jvmsentinel.daemon.export.otlp;

import io.jvmsentinel.daemon.config.OtlpConfig;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OTLP side of the daemon: Micrometer's OTLP registry, pushing a mirror of the daemon's
 * registry every step with OpenTelemetry names. A disabled config gives an export that does
 * nothing.
 */
public final class OtlpExport implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OtlpExport.class);
  private static final OtlpExport DISABLED = new OtlpExport(null, null);

  private final OtlpRegistries registries;
  private final OtlpMirror mirror;

  private OtlpExport(OtlpRegistries registries, OtlpMirror mirror) {
    this.registries = registries;
    this.mirror = mirror;
  }

  /**
   * Starts pushing {@code source}'s meters, each target's under its own resource, the first push
   * one step from now.
   */
  public static OtlpExport start(OtlpConfig config, MeterRegistry source) {
    if (!config.enabled()) {
      return DISABLED;
    }
    OtlpRegistries registries =
        new OtlpRegistries(
            (resource, serviceName) ->
                OtlpMeterRegistry.builder(new OtlpSettings(config, resource, serviceName))
                    .clock(Clock.SYSTEM)
                    .metricsSender(
                        new WireConventions(
                            new OtlpHttpMetricsSender(
                                new HttpUrlConnectionSender(
                                    config.connectTimeout(), config.readTimeout()))))
                    .build());
    OtlpMirror mirror = OtlpMirror.of(source, registries);
    log.info(
        "OTLP: {} meters of {} resources every {} s to {}",
        mirror.size(),
        registries.size(),
        config.step().toSeconds(),
        config.endpoint());
    return new OtlpExport(registries, mirror);
  }

  /** Pushes once more, then stops. */
  @Override
  public void close() {
    if (registries != null) {
      registries.close();
    }
  }

  /** How many resources (targets, and the daemon itself) are pushed now. */
  int resources() {
    return registries == null ? 0 : registries.size();
  }

  int mirrored() {
    return mirror == null ? 0 : mirror.size();
  }
}
