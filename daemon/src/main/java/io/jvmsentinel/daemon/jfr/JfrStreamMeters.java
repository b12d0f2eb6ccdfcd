package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The meters of one target's JFR stream, named by {@link SentinelMetric}: the handlers' own, bound
 * here once (series continue across restarts of the stream), and the session's gauges and counters.
 */
final class JfrStreamMeters {
  /** Why a stream was started, the {@code cause} tag of {@code jvm_sentinel_jfr_stream_starts}. */
  enum StartCause {
    CONNECT,
    STALLED,
    RETRY,
    STORM_OVER,
    STORM_PROBE;

    String tag() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  private final AtomicInteger stacksSampled = new AtomicInteger();
  private final AtomicInteger stormPaused = new AtomicInteger();
  private final AtomicLong recordingSize = new AtomicLong(-1);
  private final Map<StartCause, Counter> starts = new EnumMap<>(StartCause.class);
  private final Map<SnapshotOutcome, Counter> snapshots = new EnumMap<>(SnapshotOutcome.class);
  private final Counter evidenceDropped;

  /** {@code streaming}: whether events flow now, read by the availability gauge. */
  JfrStreamMeters(
      MeterRegistry registry,
      Tags tags,
      List<JfrEventHandler> handlers,
      BooleanSupplier streaming) {
    SentinelMetric.SENTINEL_JFR_STACK_SAMPLING.gauge(
        registry, tags, stacksSampled, AtomicInteger::get);
    SentinelMetric.SENTINEL_JFR_STORM_PAUSED.gauge(registry, tags, stormPaused, AtomicInteger::get);
    handlers.forEach(handler -> handler.bindTo(registry));
    SentinelMetric.SENTINEL_JFR_AVAILABLE.gauge(
        registry, tags, streaming, available -> available.getAsBoolean() ? 1 : 0);
    SentinelMetric.SENTINEL_JFR_TARGET_RECORDING_SIZE.gauge(
        registry, tags, recordingSize, size -> size.get() < 0 ? Double.NaN : size.get());
    for (StartCause cause : StartCause.values()) {
      starts.put(
          cause,
          SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(
              registry, tags.and("cause", cause.tag())));
    }
    this.evidenceDropped = SentinelMetric.SENTINEL_JFR_EVIDENCE_DROPPED.counter(registry, tags);
    for (SnapshotOutcome outcome : SnapshotOutcome.values()) {
      snapshots.put(
          outcome,
          SentinelMetric.SENTINEL_JFR_EVIDENCE_SNAPSHOTS.counter(
              registry, tags.and("outcome", outcome.tag())));
    }
  }

  void started(StartCause cause) {
    starts.get(cause).increment();
  }

  void snapshot(SnapshotOutcome outcome) {
    snapshots.get(outcome).increment();
  }

  Counter evidenceDropped() {
    return evidenceDropped;
  }

  void stacksSampled(boolean sampled) {
    stacksSampled.set(sampled ? 1 : 0);
  }

  boolean stacksSampled() {
    return stacksSampled.get() == 1;
  }

  void stormPaused(boolean paused) {
    stormPaused.set(paused ? 1 : 0);
  }

  boolean stormPaused() {
    return stormPaused.get() == 1;
  }

  /** The target recording's size in bytes; -1: unknown (no recording). */
  void recordingSize(long bytes) {
    recordingSize.set(bytes);
  }
}
