package io.jvmsentinel.daemon.export.otlp;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Keeps one OTLP meter for every meter of the daemon's registry, named per {@link OtelNames}, that
 * reads the original at push time: each metric is defined once (the catalog) and has one more
 * output, as with DogStatsD.
 *
 * <p>Why a mirror and not a composite registry: the OTLP side needs its own names, attributes and
 * units (ns to s), which a meter filter cannot convert, and the data path of every collector stays
 * as it is when OTLP is off.
 *
 * <p>Timers become OTLP histograms of count and sum (no buckets, no max); distribution summaries
 * and long task timers are not mirrored (the catalog has none).
 */
final class OtlpMirror {
  private record Mirrored(Meter meter, MeterRegistry registry) {}

  private final OtlpRegistries otlp;
  private final Map<Meter.Id, Mirrored> mirrors = new ConcurrentHashMap<>();

  private OtlpMirror(OtlpRegistries otlp) {
    this.otlp = otlp;
  }

  /**
   * Mirrors every meter {@code source} has now or registers later, until either is closed, each
   * into the registry of its resource.
   */
  static OtlpMirror of(MeterRegistry source, OtlpRegistries otlp) {
    OtlpMirror mirror = new OtlpMirror(otlp);
    source.config().onMeterAdded(mirror::add);
    source.config().onMeterRemoved(mirror::remove);
    source.getMeters().forEach(mirror::add);
    return mirror;
  }

  void add(Meter meter) {
    mirrors.computeIfAbsent(
        meter.getId(),
        id -> {
          MeterRegistry registry = otlp.acquire(id);
          if (registry == null) {
            return null; // the export is closed
          }
          Meter mirror = mirror(meter, registry);
          if (mirror == null) {
            otlp.release(id);
            return null;
          }
          return new Mirrored(mirror, registry);
        });
  }

  void remove(Meter meter) {
    Mirrored mirror = mirrors.remove(meter.getId());
    if (mirror != null) {
      mirror.registry().remove(mirror.meter());
      otlp.release(meter.getId());
    }
  }

  int size() {
    return mirrors.size();
  }

  private Meter mirror(Meter meter, MeterRegistry otlp) {
    Meter.Id id = OtelNames.translate(TargetResources.withoutResourceTags(meter.getId()));
    double scale = OtelNames.of(meter.getId().getName()).map(OtelName::scale).orElse(1.0);
    return meter.match(
        gauge -> gauge(otlp, id, gauge, g -> g.value() * scale),
        counter -> counter(otlp, id, counter, c -> c.count() * scale),
        timer -> timer(otlp, id, timer, Timer::count, t -> t.totalTime(TimeUnit.SECONDS)),
        summary -> null,
        longTask -> null,
        timeGauge -> gauge(otlp, id.withBaseUnit("s"), timeGauge, g -> g.value(TimeUnit.SECONDS)),
        functionCounter -> counter(otlp, id, functionCounter, c -> c.count() * scale),
        functionTimer ->
            timer(
                otlp, id, functionTimer, t -> (long) t.count(), t -> t.totalTime(TimeUnit.SECONDS)),
        other -> null);
  }

  private static <T> Meter gauge(
      MeterRegistry otlp, Meter.Id id, T source, ToDoubleFunction<T> value) {
    return Gauge.builder(id.getName(), source, value)
        .tags(id.getTagsAsIterable())
        .baseUnit(id.getBaseUnit())
        .description(id.getDescription())
        .strongReference(true)
        .register(otlp);
  }

  private static <T> Meter counter(
      MeterRegistry otlp, Meter.Id id, T source, ToDoubleFunction<T> count) {
    return FunctionCounter.builder(id.getName(), source, count)
        .tags(id.getTagsAsIterable())
        .baseUnit(id.getBaseUnit())
        .description(id.getDescription())
        .register(otlp);
  }

  private static <T> Meter timer(
      MeterRegistry otlp,
      Meter.Id id,
      T source,
      java.util.function.ToLongFunction<T> count,
      ToDoubleFunction<T> totalSeconds) {
    return FunctionTimer.builder(id.getName(), source, count, totalSeconds, TimeUnit.SECONDS)
        .tags(id.getTagsAsIterable())
        .description(id.getDescription())
        .register(otlp);
  }

  Optional<Meter> mirrorOf(Meter.Id sourceId) {
    return Optional.ofNullable(mirrors.get(sourceId)).map(Mirrored::meter);
  }
}
