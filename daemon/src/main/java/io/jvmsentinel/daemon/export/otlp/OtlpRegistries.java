package io.jvmsentinel.daemon.export.otlp;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One OTLP registry per resource: Micrometer's OTLP registry sends one resource, so each watched
 * target (a service of its own, {@link TargetResources}) has its registry, and the daemon's own
 * meters theirs. A registry is made with the first meter of its resource and closed (after a last
 * push) with its last, when the target is gone. Each pushes on its own thread every step.
 */
final class OtlpRegistries implements AutoCloseable {
  private record Held(MeterRegistry registry, int meters) {}

  private final BiFunction<Map<String, String>, String, MeterRegistry> create;
  // Guarded by this: by TargetResources.key, "" for the daemon's own.
  private final Map<String, Held> byResource = new HashMap<>();
  private boolean closed;

  /**
   * @param create a registry for these resource attributes (empty for the daemon's resource) and
   *     this default service.name (the target's name, or the daemon's)
   */
  OtlpRegistries(BiFunction<Map<String, String>, String, MeterRegistry> create) {
    this.create = create;
  }

  /** The registry of {@code source}'s resource, counting one more meter in it. */
  synchronized MeterRegistry acquire(Meter.Id source) {
    if (closed) {
      return null;
    }
    String key = TargetResources.key(source);
    Held held = byResource.get(key);
    if (held == null) {
      MeterRegistry registry =
          key.isEmpty()
              ? create.apply(Map.of(), OtlpSettings.DEFAULT_SERVICE_NAME)
              : create.apply(
                  TargetResources.of(source), TargetResources.targetOf(source).orElseThrow());
      held = new Held(registry, 0);
    }
    byResource.put(key, new Held(held.registry(), held.meters() + 1));
    return held.registry();
  }

  /** One meter fewer in {@code source}'s resource; the last closes its registry. */
  synchronized void release(Meter.Id source) {
    String key = TargetResources.key(source);
    Held held = byResource.get(key);
    if (held == null) {
      return;
    }
    if (held.meters() <= 1) {
      byResource.remove(key);
      held.registry().close();
    } else {
      byResource.put(key, new Held(held.registry(), held.meters() - 1));
    }
  }

  synchronized int size() {
    return byResource.size();
  }

  @Override
  public synchronized void close() {
    closed = true;
    byResource.values().forEach(held -> held.registry().close());
    byResource.clear();
  }
}
