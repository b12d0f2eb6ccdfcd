package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;

/**
 * GC tags come from the target: a JVM (or code that registers collector MBeans, or a JDK with new
 * causes) decides how many. Each tag is capped; what overflows is counted under {@code other}.
 */
class GcPollerTagCapTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final GcPoller poller = new GcPoller(Tags.of("target", "t"));

  @Test
  void collectorActionAndCauseAreEachCapped() throws Exception {
    poller.bindTo(registry);
    GcInfo real = oneRealGcInfo();
    int sent = 0;
    for (int i = 0; i < 20; i++) {
      poller.record(notification("Collector " + i, "end of minor GC", "Cause A", real));
      poller.record(notification("Collector 0", "action " + i, "Cause A", real));
      sent += 2;
    }
    for (int i = 0; i < 100; i++) {
      poller.record(notification("Collector 0", "end of minor GC", "Cause " + i, real));
      sent++;
    }

    assertThat(tagValues("gc")).hasSize(GcPoller.MAX_COLLECTORS + 1).contains("other");
    assertThat(tagValues("action")).hasSize(GcPoller.MAX_ACTIONS + 1).contains("other");
    assertThat(tagValues("cause")).hasSize(GcPoller.MAX_CAUSES + 1).contains("other");
    long recorded = registry.find("jvm.gc.pause").timers().stream().mapToLong(t -> t.count()).sum();
    assertThat(recorded).as("every pause counted, none lost").isEqualTo(sent);
    assertThat(capped("gc")).isEqualTo(20 - GcPoller.MAX_COLLECTORS);
    assertThat(capped("action")).isEqualTo(20 - (GcPoller.MAX_ACTIONS - 1));
    assertThat(capped("cause")).isEqualTo(100 - (GcPoller.MAX_CAUSES - 1));
  }

  @Test
  void pauseTimersAreTheRegisteredPauseTimersWithoutConcurrentPhases() throws Exception {
    poller.bindTo(registry);
    GcInfo real = oneRealGcInfo();
    poller.record(notification("Copy", "end of minor GC", "Allocation Failure", real));
    poller.record(notification("Copy", "end of minor GC", "Allocation Failure", real));
    poller.record(notification("MarkSweepCompact", "end of major GC", "System.gc()", real));
    poller.record(notification("ZGC Cycles", "end of GC cycle", "Warmup", real));

    assertThat(poller.pauseTimers())
        .containsExactlyInAnyOrderElementsOf(registry.find("jvm.gc.pause").timers());
    assertThat(poller.pauseTimers())
        .extracting(t -> t.getId().getTag("gc") + ":" + t.count())
        .containsExactlyInAnyOrder("Copy:2", "MarkSweepCompact:1");
    assertThat(registry.find("jvm.gc.concurrent.phase.time").timers()).hasSize(1);
  }

  private Set<String> tagValues(String key) {
    return registry.find("jvm.gc.pause").timers().stream()
        .map(Meter::getId)
        .map(id -> id.getTag(key))
        .collect(Collectors.toSet());
  }

  private double capped(String tag) {
    return registry
        .get("jvm.sentinel.tag.values.capped")
        .tags("meter", "jvm.gc.pause", "tag", tag)
        .functionCounter()
        .count();
  }

  private static Notification notification(String gc, String action, String cause, GcInfo info) {
    CompositeData data =
        new GarbageCollectionNotificationInfo(gc, action, cause, info).toCompositeData(null);
    Notification notification =
        new Notification(
            GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION, "test", 1);
    notification.setUserData(data);
    return notification;
  }

  /** A GcInfo cannot be built, so take one from a real collection of this JVM. */
  private static GcInfo oneRealGcInfo() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    AtomicReference<GcInfo> seen = new AtomicReference<>();
    NotificationListener listener =
        (notification, handback) ->
            seen.compareAndSet(
                null,
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                    .getGcInfo());
    Set<ObjectName> collectors =
        server.queryNames(new ObjectName("java.lang:type=GarbageCollector,name=*"), null);
    for (ObjectName name : collectors) {
      server.addNotificationListener(name, listener, null, null);
    }
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> {
                System.gc();
                return seen.get() != null;
              });
    } finally {
      for (ObjectName name : collectors) {
        server.removeNotificationListener(name, listener);
      }
    }
    return seen.get();
  }
}
