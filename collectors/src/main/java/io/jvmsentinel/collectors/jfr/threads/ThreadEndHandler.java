package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * Counts {@code jdk.ThreadEnd}, and the threads that ended within 1 s of their start (matched with
 * {@link ThreadStartHandler}'s starts through the shared {@link ThreadLifetimes}): one thread per
 * task or request shows as a high share of short-lived threads.
 */
public final class ThreadEndHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.ThreadEnd";

  private final Tags tags;
  private final ThreadLifetimes lifetimes;
  private volatile Counter ended;
  private volatile Counter shortLived;

  public ThreadEndHandler(Tags tags, ThreadLifetimes lifetimes) {
    this.tags = tags;
    this.lifetimes = lifetimes;
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
    ended = Metric.JVM_THREADS_ENDED.counter(registry, tags);
    shortLived = Metric.JVM_THREADS_SHORT_LIVED.counter(registry, tags);
  }

  @Override
  public void accept(RecordedEvent event) {
    RecordedThread thread = EventFields.thread(event, "thread");
    if (thread == null) {
      // The ending thread commits its own ThreadEnd, so the event thread is the same thread.
      thread = event.getThread();
    }
    record(thread == null ? -1 : thread.getJavaThreadId(), event.getStartTime());
  }

  @Override
  public boolean sheddable() {
    return true;
  }

  /** Too late to pair with its start: counted as an end only. */
  @Override
  public void shed(RecordedEvent event) {
    increment(ended);
  }

  /** Counts one end; package-private so tests can feed synthetic ends. */
  void record(long javaThreadId, Instant at) {
    boolean isShortLived = lifetimes.ended(javaThreadId, at);
    increment(ended);
    if (isShortLived) {
      increment(shortLived);
    }
  }

  private static void increment(Counter counter) {
    if (counter != null) {
      counter.increment();
    }
  }

  @Override
  public void streamStopped() {
    lifetimes.clear();
  }
}
