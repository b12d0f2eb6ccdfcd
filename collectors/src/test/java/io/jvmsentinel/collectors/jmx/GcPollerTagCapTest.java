package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.GcInfo;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Set;
import java.util.stream.Collectors;
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
    GcInfo real = GcNotifications.realGcInfo();
    int sent = 0;
    for (int i = 0; i < 20; i++) {
      poller.record(
          GcNotifications.notification("Collector " + i, "end of minor GC", "Cause A", real));
      poller.record(GcNotifications.notification("Collector 0", "action " + i, "Cause A", real));
      sent += 2;
    }
    for (int i = 0; i < 100; i++) {
      poller.record(
          GcNotifications.notification("Collector 0", "end of minor GC", "Cause " + i, real));
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
    GcInfo real = GcNotifications.realGcInfo();
    poller.record(
        GcNotifications.notification("Copy", "end of minor GC", "Allocation Failure", real));
    poller.record(
        GcNotifications.notification("Copy", "end of minor GC", "Allocation Failure", real));
    poller.record(
        GcNotifications.notification("MarkSweepCompact", "end of major GC", "System.gc()", real));
    poller.record(GcNotifications.notification("ZGC Cycles", "end of GC cycle", "Warmup", real));

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
}
