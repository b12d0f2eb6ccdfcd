package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.collectors.support.TopK;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Deoptimisations by reason and action ({@code make_not_entrant} = compiled code invalidated), and
 * the methods deoptimised most, for detection of churn (the same methods compiled and thrown away
 * again and again). Stack traces are off: the {@code method} field names the compiled method, and
 * the event is hot during churn.
 *
 * <p>Events on the monitoring's own threads are skipped ({@link MonitoringThreads}): starting the
 * remote stream deoptimises code on {@code RMI TCP Connection} threads.
 */
public final class DeoptimizationHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.Deoptimization";
  static final int MAX_REASONS = 20;
  static final int MAX_ACTIONS = 20;
  static final int TOP_METHODS = 50;
  static final int MAX_REASONS_PER_METHOD = 8;

  /**
   * A method among the most deoptimised on this stream.
   *
   * @param method {@code fully.qualified.Class.method}
   * @param count deoptimisations counted (an overestimate by at most {@code error})
   * @param reasons the reasons seen for it, first seen first (at most 8)
   */
  public record DeoptimizedMethod(String method, long count, long error, Set<String> reasons) {}

  private static final String MAKE_NOT_ENTRANT = "make_not_entrant";
  private final java.util.concurrent.atomic.AtomicLong madeNotEntrant =
      new java.util.concurrent.atomic.AtomicLong();
  private final Tags tags;
  private final MonitoringThreads monitoring;
  private final CardinalityCap reasons = new CardinalityCap(MAX_REASONS);
  private final CardinalityCap actions = new CardinalityCap(MAX_ACTIONS);
  private final Map<Tags, Counter> counters = new ConcurrentHashMap<>();
  private final AtomicLong total = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  // Guarded by this.
  private final TopK<String, Boolean> methods = new TopK<>(TOP_METHODS);
  private final Map<String, Set<String>> methodReasons = new HashMap<>();
  private final IntervalCounts recent = new IntervalCounts();
  private MeterRegistry registry;

  public DeoptimizationHandler(Tags tags, MonitoringThreads monitoring) {
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
    reasons.bindTo(registry, tags, Metric.JVM_JIT_DEOPTIMIZATIONS, "reason");
    actions.bindTo(registry, tags, Metric.JVM_JIT_DEOPTIMIZATIONS, "action");
  }

  @Override
  public void accept(RecordedEvent event) {
    if (monitoring.isMonitoring(EventFields.threadName(event))) {
      skipped.incrementAndGet();
      return;
    }
    total.incrementAndGet();
    String reason = reasons.value(EventFields.string(event, "reason"));
    String action = actions.value(EventFields.string(event, "action"));
    if (MAKE_NOT_ENTRANT.equals(action)) {
      madeNotEntrant.incrementAndGet();
    }
    counters
        .computeIfAbsent(
            Tags.of("reason", reason, "action", action),
            k -> Metric.JVM_JIT_DEOPTIMIZATIONS.counter(registry, tags.and(k)))
        .increment();
    String method = EventFields.method(event, "method");
    if (method != null) {
      track(method, reason);
    }
  }

  private synchronized void track(String method, String reason) {
    recent.add(method, reason);
    methods.add(method, Boolean.TRUE);
    Set<String> seen = methodReasons.computeIfAbsent(method, m -> new LinkedHashSet<>());
    if (seen.size() < MAX_REASONS_PER_METHOD) {
      seen.add(reason);
    }
    if (methodReasons.size() > 2 * TOP_METHODS) {
      // Drop the reasons of methods the top-K no longer tracks.
      for (Iterator<String> it = methodReasons.keySet().iterator(); it.hasNext(); ) {
        if (methods.count(it.next()) == 0) {
          it.remove();
        }
      }
    }
  }

  /** The {@code n} most deoptimised methods on the current stream, most first. */
  public synchronized List<DeoptimizedMethod> topMethods(int n) {
    List<DeoptimizedMethod> top = new ArrayList<>();
    for (TopK.Entry<String, Boolean> entry : methods.top(n)) {
      Set<String> seen = methodReasons.getOrDefault(entry.key(), Set.of());
      top.add(new DeoptimizedMethod(entry.key(), entry.count(), entry.error(), Set.copyOf(seen)));
    }
    return List.copyOf(top);
  }

  /**
   * The {@code n} most deoptimised methods since the last call, with their reasons: the detection
   * tick keeps them per tick, so an alert names the methods of its own window.
   */
  public List<IntervalCounts.Count> drainInterval(int n) {
    return recent.drain(n);
  }

  /** Deoptimizations whose action made the compiled method not entrant (monotonic). */
  public long madeNotEntrant() {
    return madeNotEntrant.get();
  }

  /** Deoptimisations counted since the handler was created (monotonic, survives reconnects). */
  public long total() {
    return total.get();
  }

  /** Deoptimisations skipped because they happened on the monitoring's own threads. */
  public long skipped() {
    return skipped.get();
  }

  @Override
  public synchronized void streamStopped() {
    methods.clear();
    methodReasons.clear();
  }
}
