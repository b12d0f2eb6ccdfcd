package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.support.DropLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each event to its handler, and counts what happens: events received, handler failures
 * (logged once per event type, never stopping the stream) and lag from the event's end on the
 * target to its processing here.
 *
 * <p>Overload: a remote stream loses nothing when its consumer is slow, it just falls behind
 * without bound (measured: lag p90 11 to 16 s after 45 s of a slow consumer). So an event of a
 * {@linkplain JfrEventHandler#sheddable() sheddable} type that arrives later than {@code maxLag}
 * goes to the handler's cheap {@code shed} path (counts only) and is counted as dropped: the
 * backlog drains at counting speed and lag comes back under the bound.
 */
final class EventDispatcher {
  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);
  // Shedding is reported where operators read the stream's state: the session's log.
  private static final Logger sessionLog = LoggerFactory.getLogger(JfrStreamSession.class);
  static final String REASON_LAG = "lag";

  private final String target;
  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer lag;
  private final Clock clock;
  private final Duration maxLag;
  private final long simulatedCostNanos;
  private final DropLog drops;
  private final Set<String> loggedFailures = ConcurrentHashMap.newKeySet();
  private final AtomicLong currentLagMillis = new AtomicLong(-1);

  /** A target's dispatcher as {@code config} sets it, drops logged at most once a minute. */
  static EventDispatcher of(
      String target, MeterRegistry registry, Tags tags, Clock clock, JfrConfig config) {
    return new EventDispatcher(
        target,
        registry,
        tags,
        clock,
        config.maxLag(),
        config.simulatedEventCost(),
        new DropLog(Duration.ofMinutes(1)));
  }

  EventDispatcher(
      String target,
      MeterRegistry registry,
      Tags tags,
      Clock clock,
      Duration maxLag,
      Duration simulatedCost,
      DropLog drops) {
    this.target = target;
    this.registry = registry;
    this.tags = tags;
    this.clock = clock;
    this.maxLag = maxLag;
    this.simulatedCostNanos = simulatedCost.toNanos();
    this.drops = drops;
    this.lag = SentinelMetric.SENTINEL_JFR_LAG.timer(registry, tags);
    // A timer's max decays over minutes; operators and tests need how far behind it is now.
    SentinelMetric.SENTINEL_JFR_LAG_CURRENT.gauge(
        registry, tags, currentLagMillis, l -> l.get() < 0 ? Double.NaN : l.get() / 1000.0);
  }

  /** How late the last event arrived, from its end on the target to its processing; -1 if none. */
  long currentLagMillis() {
    return currentLagMillis.get();
  }

  /**
   * Logs what was shed since the last report, if a report is due (at most once a {@link DropLog}
   * interval); called by the session's watchdog.
   */
  void reportDrops() {
    drops
        .due(clock.instant())
        .ifPresent(
            counts ->
                sessionLog.warn(
                    "target {}: overloaded: {} events arrived more than {} late and were only"
                        + " counted since the last report (jvm_sentinel_jfr_events_dropped_total;"
                        + " reported at most once a minute): {}",
                    target,
                    counts.values().stream().mapToLong(Long::longValue).sum(),
                    Durations.format(maxLag),
                    counts));
  }

  /** The stream callback for one handler; its counters are registered once, here. */
  Consumer<RecordedEvent> consumerFor(JfrEventHandler handler) {
    return consumerFor(handler, Duration.ZERO);
  }

  /**
   * The callback for one handler of a feed whose events arrive {@code inherentDelay} late by design
   * (a chunk feed's read period): shedding starts only beyond {@code maxLag} on top of that.
   */
  Consumer<RecordedEvent> consumerFor(JfrEventHandler handler, Duration inherentDelay) {
    Duration shedAfter = maxLag.plus(inherentDelay);
    Tags eventTags = tags.and("event", handler.eventName());
    Counter received = SentinelMetric.SENTINEL_JFR_EVENTS.counter(registry, eventTags);
    Counter errors = SentinelMetric.SENTINEL_JFR_HANDLER_ERRORS.counter(registry, eventTags);
    Counter dropped =
        handler.sheddable()
            ? SentinelMetric.SENTINEL_JFR_EVENTS_DROPPED.counter(
                registry, eventTags.and("reason", REASON_LAG))
            : null;
    String name = handler.eventName();
    return event -> {
      received.increment();
      Instant end = event.getEndTime();
      Duration behind = end == null ? Duration.ZERO : Duration.between(end, clock.instant());
      if (!behind.isNegative()) {
        lag.record(behind);
        currentLagMillis.set(behind.toMillis());
      }
      try {
        if (dropped != null && behind.compareTo(shedAfter) > 0) {
          dropped.increment();
          drops.dropped(name);
          handler.shed(event);
          return;
        }
        simulateCost();
        handler.accept(event);
      } catch (RuntimeException e) {
        errors.increment();
        if (loggedFailures.add(name)) {
          log.warn(
              "target {}: handler for {} failed (counted in jvm_sentinel_jfr_handler_errors_total,"
                  + " logged once): {}",
              target,
              name,
              e.toString(),
              e);
        }
      }
    };
  }

  /** Busy work standing in for a slower daemon, so tests can overload it at rates a lab reaches. */
  private void simulateCost() {
    if (simulatedCostNanos > 0) {
      long until = System.nanoTime() + simulatedCostNanos;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
    }
  }
}
