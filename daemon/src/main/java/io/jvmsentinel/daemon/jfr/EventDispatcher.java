package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.JfrEventHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each event to its handler, and counts what happens: events received, handler failures
 * (logged once per event type, never stopping the stream) and lag from the event's end on the
 * target to its processing here.
 */
final class EventDispatcher {
  private static final Logger log = LoggerFactory.getLogger(EventDispatcher.class);

  private final String target;
  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer lag;
  private final Clock clock;
  private final Set<String> loggedFailures = ConcurrentHashMap.newKeySet();

  EventDispatcher(String target, MeterRegistry registry, Tags tags, Clock clock) {
    this.target = target;
    this.registry = registry;
    this.tags = tags;
    this.clock = clock;
    this.lag = Metric.SENTINEL_JFR_LAG.timer(registry, tags);
  }

  /** The stream callback for one handler; its counters are registered once, here. */
  Consumer<RecordedEvent> consumerFor(JfrEventHandler handler) {
    Tags eventTags = tags.and("event", handler.eventName());
    Counter received = Metric.SENTINEL_JFR_EVENTS.counter(registry, eventTags);
    Counter errors = Metric.SENTINEL_JFR_HANDLER_ERRORS.counter(registry, eventTags);
    return event -> {
      received.increment();
      Instant end = event.getEndTime();
      if (end != null) {
        Duration behind = Duration.between(end, clock.instant());
        if (!behind.isNegative()) {
          lag.record(behind);
        }
      }
      try {
        handler.accept(event);
      } catch (RuntimeException e) {
        errors.increment();
        if (loggedFailures.add(handler.eventName())) {
          log.warn(
              "target {}: handler for {} failed (counted in jvm_sentinel_jfr_handler_errors_total,"
                  + " logged once): {}",
              target,
              handler.eventName(),
              e.toString(),
              e);
        }
      }
    };
  }
}
