package io.jvmsentinel.collectors.catalog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * A catalogued meter: the only way jvm-sentinel registers one, so each name, unit and description
 * exists in exactly one place ({@link Metric} for the collectors, the daemon's own catalog for its
 * self-monitoring) and docs/metrics.md is generated from the catalogs.
 */
public interface MeterDefinition {

  MeterSpec spec();

  default String meterName() {
    return spec().meterName();
  }

  default MeterKind kind() {
    return spec().kind();
  }

  default String baseUnit() {
    return spec().baseUnit();
  }

  default String description() {
    return spec().description();
  }

  default String tagKeys() {
    return spec().tagKeys();
  }

  default String source() {
    return spec().source();
  }

  default <T> Gauge gauge(MeterRegistry registry, Tags tags, T state, ToDoubleFunction<T> value) {
    expect(MeterKind.GAUGE);
    return Gauge.builder(meterName(), state, value)
        .description(description())
        .baseUnit(baseUnit())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  /** A gauge whose value is a duration read in {@code unit}, exported in the base unit. */
  default <T> TimeGauge timeGauge(
      MeterRegistry registry, Tags tags, T state, TimeUnit unit, ToDoubleFunction<T> value) {
    expect(MeterKind.GAUGE);
    return TimeGauge.builder(meterName(), state, unit, value)
        .description(description())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  /** A counter whose cumulative value is read from the target (it resets when the target does). */
  default <T> FunctionCounter functionCounter(
      MeterRegistry registry, Tags tags, T state, ToDoubleFunction<T> value) {
    expect(MeterKind.COUNTER);
    return FunctionCounter.builder(meterName(), state, value)
        .description(description())
        .baseUnit(baseUnit())
        .tags(tags)
        .register(registry);
  }

  default Counter counter(MeterRegistry registry, Tags tags) {
    expect(MeterKind.COUNTER);
    return Counter.builder(meterName())
        .description(description())
        .baseUnit(baseUnit())
        .tags(tags)
        .register(registry);
  }

  default Timer timer(MeterRegistry registry, Tags tags) {
    expect(MeterKind.TIMER);
    return Timer.builder(meterName()).description(description()).tags(tags).register(registry);
  }

  /** Fails when the meter is registered as another kind than catalogued. */
  default void expect(MeterKind wanted) {
    if (kind() != wanted) {
      throw new IllegalStateException(meterName() + " is a " + kind() + ", not a " + wanted);
    }
  }
}
