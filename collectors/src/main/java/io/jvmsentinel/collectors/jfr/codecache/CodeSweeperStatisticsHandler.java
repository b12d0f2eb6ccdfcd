package io.jvmsentinel.collectors.jfr.codecache;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.function.ToDoubleFunction;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The code cache sweeper's cumulative counts (JDK 16 to 19; the sweeper and this event are gone
 * since JDK 20, where the GC unloads code: see collectors/src/test/resources/jfr/codecache). The
 * meters are registered on the first event, so targets without a sweeper get no zero series.
 */
public final class CodeSweeperStatisticsHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.CodeSweeperStatistics";

  /** Cumulative values of one event. */
  public record Sweeper(double sweeps, double methodsReclaimed, double sweepSeconds) {}

  private final Tags tags;
  private final Duration period;
  private final LatestReading<Sweeper> reading = new LatestReading<>();
  private MeterRegistry registry;
  private boolean registered;

  public CodeSweeperStatisticsHandler(Tags tags) {
    this(tags, Duration.ofSeconds(5));
  }

  public CodeSweeperStatisticsHandler(Tags tags, Duration period) {
    this.tags = tags;
    this.period = period;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.periodic(period);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void accept(RecordedEvent event) {
    Sweeper previous = reading.current();
    Duration time = EventFields.duration(event, "totalSweepTime");
    reading.update(
        new Sweeper(
            orPrevious(EventFields.number(event, "sweepCount"), previous, Sweeper::sweeps),
            orPrevious(
                EventFields.number(event, "methodReclaimedCount"),
                previous,
                Sweeper::methodsReclaimed),
            orPrevious(
                time == null ? Double.NaN : time.toNanos() / 1e9,
                previous,
                Sweeper::sweepSeconds)));
    registerOnce();
  }

  private static double orPrevious(
      double value, Sweeper previous, ToDoubleFunction<Sweeper> field) {
    if (!Double.isNaN(value)) {
      return value;
    }
    return previous == null ? 0 : field.applyAsDouble(previous);
  }

  private synchronized void registerOnce() {
    if (registered || registry == null) {
      return;
    }
    registered = true;
    Metric.JVM_CODECACHE_SWEEPER_SWEEPS.functionCounter(
        registry, tags, reading, r -> r.counter(Sweeper::sweeps));
    Metric.JVM_CODECACHE_SWEEPER_RECLAIMED.functionCounter(
        registry, tags, reading, r -> r.counter(Sweeper::methodsReclaimed));
    Metric.JVM_CODECACHE_SWEEPER_TIME.functionCounter(
        registry, tags, reading, r -> r.counter(Sweeper::sweepSeconds));
  }

  /** The latest values, null before the first event or after the stream stopped. */
  public Sweeper latest() {
    return reading.current();
  }

  @Override
  public void streamStopped() {
    reading.clear();
  }
}
