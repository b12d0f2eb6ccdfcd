package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Time virtual threads blocked while pinned to their carrier ({@code jdk.VirtualThreadPinned}, JDK
 * 21+), by the code that pinned them, into {@code jvm.threads.virtual.pinned{site}}. A pinned
 * virtual thread that blocks holds its carrier, one of the few (as many as the target has CPUs by
 * default) that run every virtual thread; when pins hold them all, the service stalls with its CPUs
 * idle. On JDK 21 to 23 a blocking call inside {@code synchronized} pins; from JDK 24 (JEP 491)
 * only native frames and class initializers do.
 *
 * <p>The site is the first frame of the pinned thread's stack that is not the JDK's: where it
 * blocked, in or below the {@code synchronized} method or block that pinned it (JFR does not say
 * which frame holds the monitor). When no frame is the application's, the site is the event's
 * {@code pinnedReason} (JDK 24+, e.g. {@code VM call to Foo.<clinit> on stack}).
 */
public final class VirtualThreadPinnedHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.VirtualThreadPinned";

  /** JFR's own default.jfc threshold: pins shorter than this cost a carrier too little to chart. */
  static final Duration THRESHOLD = Duration.ofMillis(20);

  /** Sites that get their own series; later ones are {@code site="other"}. */
  public static final int MAX_SITE_SERIES = 20;

  private final Tags tags;
  private final CardinalityCap sites = new CardinalityCap(MAX_SITE_SERIES);
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private volatile MeterRegistry registry;

  public VirtualThreadPinnedHandler(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.duration(THRESHOLD, true);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    sites.bindTo(registry, tags, Metric.JVM_THREADS_VIRTUAL_PINNED, "site");
  }

  @Override
  public void accept(RecordedEvent event) {
    record(sites.value(site(event)), event.getDuration());
  }

  @Override
  public boolean sheddable() {
    return true;
  }

  /** Too late for its stack: the carrier time still counts. */
  @Override
  public void shed(RecordedEvent event) {
    record(CardinalityCap.OTHER, event.getDuration());
  }

  /** The first application frame, else the JDK's reason (JDK 24+), else null (unknown). */
  static String site(RecordedEvent event) {
    StackFrame.Stack stack = StackFrame.Stack.of(event.getStackTrace());
    if (stack.frames() != null) {
      for (StackFrame frame : stack.frames()) {
        if (!frame.jdk()) {
          return frame.site();
        }
      }
    }
    return EventFields.string(event, "pinnedReason");
  }

  private void record(String site, Duration pinned) {
    MeterRegistry bound = registry;
    if (bound != null) {
      timers
          .computeIfAbsent(
              site, s -> Metric.JVM_THREADS_VIRTUAL_PINNED.timer(bound, tags.and("site", s)))
          .record(pinned);
    }
  }
}
