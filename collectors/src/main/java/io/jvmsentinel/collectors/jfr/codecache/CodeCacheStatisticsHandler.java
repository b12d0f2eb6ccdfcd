package io.jvmsentinel.collectors.jfr.codecache;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Per code heap segment: entries, methods, unallocated capacity, and how often it became full.
 * {@code fullCount} is cumulative since the target started, so fills that happened before the
 * stream connected (a tiny cache can fill in the first two seconds) are counted too.
 *
 * <p>The {@code segment} tag is {@code codeBlobType} as the event gives it: {@code CodeHeap
 * 'non-profiled nmethods'}, {@code 'profiled nmethods'}, {@code 'non-nmethods'}, or {@code
 * CodeCache} when the cache is not segmented (the ids of the JMX memory pools).
 */
public final class CodeCacheStatisticsHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.CodeCacheStatistics";

  /**
   * More than any JDK has (3 segments, 1 unsegmented); the target could send anything. Segments
   * beyond it are skipped, not summed into {@code other} (their gauges would mix), and counted.
   */
  static final int MAX_SEGMENTS = 8;

  /** One segment's latest statistics; NaN where the event lacked the field. */
  public record Segment(double entries, double methods, double unallocated, double fullCount) {}

  private final Tags tags;
  private final Duration period;
  private final CardinalityCap known = new CardinalityCap(MAX_SEGMENTS);
  private KeyedReadings<String, Segment> readings;

  /** Emitted every 5 s: occupancy moves slowly; full events carry the exact time. */
  public CodeCacheStatisticsHandler(Tags tags) {
    this(tags, Duration.ofSeconds(5));
  }

  public CodeCacheStatisticsHandler(Tags tags, Duration period) {
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
    known.bindTo(registry, tags, Metric.JVM_CODECACHE_ENTRIES, "segment");
    readings =
        new KeyedReadings<>(
            (segment, reading) -> {
              Tags segmentTags = tags.and("segment", segment);
              Metric.JVM_CODECACHE_ENTRIES.gauge(
                  registry, segmentTags, reading, r -> r.gauge(Segment::entries));
              Metric.JVM_CODECACHE_METHODS.gauge(
                  registry, segmentTags, reading, r -> r.gauge(Segment::methods));
              Metric.JVM_CODECACHE_UNALLOCATED.gauge(
                  registry, segmentTags, reading, r -> r.gauge(Segment::unallocated));
              Metric.JVM_CODECACHE_FULL.functionCounter(
                  registry, segmentTags, reading, r -> r.counter(Segment::fullCount));
            });
  }

  @Override
  public void accept(RecordedEvent event) {
    String segment = EventFields.string(event, "codeBlobType");
    if (segment == null || !known.admit(segment)) {
      return;
    }
    LatestReading<Segment> reading = readings.get(segment);
    double fullCount = EventFields.number(event, "fullCount");
    if (Double.isNaN(fullCount)) {
      // Keep the counter where it was rather than exporting NaN.
      Segment previous = reading.current();
      fullCount = previous == null ? 0 : previous.fullCount();
    }
    reading.update(
        new Segment(
            EventFields.number(event, "entryCount"),
            EventFields.number(event, "methodCount"),
            EventFields.number(event, "unallocatedCapacity"),
            fullCount));
  }

  /**
   * The latest statistics of a segment, null before its first event or after the stream stopped.
   */
  public Segment segment(String segment) {
    return known.admitted(segment) ? readings.get(segment).current() : null;
  }

  @Override
  public void streamStopped() {
    readings.clearAll();
  }
}
