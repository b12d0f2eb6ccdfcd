package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Failed compilations by normalised failure message, at most 20 distinct reasons, then {@code
 * other}. Typical messages: {@code "code cache is full"} and {@code "CodeCache is full"} (a full
 * segment), {@code "concurrent class loading"} (benign, a class loaded during the compile).
 *
 * <p>{@value #JVMTI_INVALIDATED} is caused by a JVMTI class retransformation during the compile:
 * JFR starting does that itself. It is emitted on the compiler thread, so {@link MonitoringThreads}
 * cannot catch it; it keeps its own reason and detection rules ignore it.
 */
public final class CompilationFailureHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.CompilationFailure";
  public static final String JVMTI_INVALIDATED = "Jvmti state change invalidated dependencies";
  static final int MAX_REASONS = 20;
  static final int MAX_REASON_LENGTH = 60;

  private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]+");
  private static final Pattern NUMBER = Pattern.compile("\\d+");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private final Tags tags;
  private final MonitoringThreads monitoring;
  private final CardinalityCap reasons = new CardinalityCap(MAX_REASONS);
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private MeterRegistry registry;

  public CompilationFailureHandler(Tags tags, MonitoringThreads monitoring) {
    this.tags = tags;
    this.monitoring = monitoring;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    reasons.bindTo(registry, tags, Metric.JVM_JIT_COMPILATION_FAILURES, "reason");
  }

  @Override
  public void accept(RecordedEvent event) {
    if (monitoring.isMonitoring(EventFields.threadName(event))) {
      return;
    }
    String reason = reasons.value(normalise(EventFields.string(event, "failureMessage")));
    counters
        .computeIfAbsent(
            reason,
            r -> Metric.JVM_JIT_COMPILATION_FAILURES.counter(registry, tags.and("reason", r)))
        .increment();
  }

  /**
   * The message as a tag value: addresses and numbers become {@code #} (so "out of nodes 80001" and
   * "out of nodes 80003" are one reason), whitespace collapsed, at most 60 characters.
   */
  public static String normalise(String message) {
    if (message == null) {
      return null;
    }
    String text = ADDRESS.matcher(message).replaceAll("#");
    text = NUMBER.matcher(text).replaceAll("#");
    text = SPACES.matcher(text).replaceAll(" ").trim();
    return text.length() <= MAX_REASON_LENGTH ? text : text.substring(0, MAX_REASON_LENGTH).trim();
  }
}
