package io.jvmsentinel.collectors.jfr.locks;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.StackSampledHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Time threads spend waiting on one kind of JFR event ({@link ContentionKind}): every event into
 * {@code jvm.threads.contention{kind,class}}, and the contended ones (monitor enters, parks on
 * locks) into the {@link ContentionTable} that detection drains each tick, with stacks. One
 * instance per kind, sharing one table.
 *
 * <p>Under load the stream records these stacks only in sampling windows, as it does for thread
 * starts ({@link #stacksSampled}): a wait without a stack then still counts, in the meter and in
 * its lock's blocked time, but names no blocked site, so site shares are shares of the sampled
 * waits.
 */
public final class ContentionHandler implements StackSampledHandler {
  /** Lock classes that get their own series per kind; later ones are {@code class="other"}. */
  public static final int MAX_CLASS_SERIES = 20;

  static final String OTHER = "other";

  private final Tags tags;
  private final ContentionKind kind;
  private final ContentionTable table;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private volatile MeterRegistry registry;
  private volatile boolean stacksSampled;

  public ContentionHandler(Tags tags, ContentionKind kind, ContentionTable table) {
    this.tags = tags;
    this.kind = kind;
    this.table = table;
  }

  @Override
  public String eventName() {
    return kind.eventName();
  }

  @Override
  public EventSettings settings() {
    return EventSettings.duration(kind.threshold(), kind != ContentionKind.MONITOR_WAIT);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    // "other" exists from the start, so a quiet target reads 0 rather than absent.
    timer(OTHER);
  }

  @Override
  public void accept(RecordedEvent event) {
    BlockedEvent blocked = BlockedEvent.of(event, kind);
    record(blocked.className(), blocked.nanos());
    if (kind.contended(blocked.className())) {
      table.add(blocked, !stacksSampled || blocked.stack().frames() != null);
    }
  }

  @Override
  public void stacksSampled(boolean sampled) {
    stacksSampled = sampled;
  }

  @Override
  public boolean sheddable() {
    return true;
  }

  /** Too late for stacks and sites: the time still counts in the meter. */
  @Override
  public void shed(RecordedEvent event) {
    record(OTHER, event.getDuration().toNanos());
  }

  private void record(String className, long nanos) {
    Timer timer = timer(className);
    if (timer != null) {
      timer.record(Duration.ofNanos(nanos));
    }
  }

  private Timer timer(String className) {
    MeterRegistry bound = registry;
    if (bound == null) {
      return null;
    }
    Timer existing = timers.get(className);
    if (existing != null) {
      return existing;
    }
    String series = timers.size() < MAX_CLASS_SERIES + 1 ? className : OTHER;
    return timers.computeIfAbsent(
        series,
        c ->
            Metric.JVM_THREADS_CONTENTION.timer(
                bound, tags.and("kind", kind.tag()).and("class", c)));
  }
}
