package io.jvmsentinel.collectors.jmx;

import static io.jvmsentinel.collectors.jmx.GcNotifications.notification;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jmx.GcNotifications.Pool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The collectors of JDK 8 targets, by the names jdk8u gives them (hotspot/src/share/vm/services/
 * memoryManager.hpp for collectors, memoryService.cpp and g1MemoryPool.cpp for pools): Parallel
 * (the default on 8), CMS and G1. Actions are "end of minor GC" / "end of major GC"
 * (memoryManager.cpp, GCMemoryManager::gc_end).
 *
 * <p>CMS: the background cycle is reported by the {@code ConcurrentMarkSweep} bean once, at the end
 * of the concurrent sweep, spanning initial mark to sweep end, with the heap's cause outside a
 * collection, {@code No GC} (jdk8u concurrentMarkSweepGeneration.cpp: {@code CMSCollector::sweep}
 * and {@code TraceCMSMemoryManagerStats}); a foreground (stop-the-world) CMS collection has a real
 * cause. A JDK 11 CMS target, watched live, sent exactly these: "ConcurrentMarkSweep / end of major
 * GC / No GC" for background cycles, "... / Allocation Failure" for foreground ones.
 */
class GcPollerJdk8Test {
  private static final double MB = 1024 * 1024;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final GcPoller poller = new GcPoller(Tags.of("target", "jdk8"));

  @Test
  void parallelScavengeAndMarkSweepArePausesAndFeedAllocationPromotionAndLiveData()
      throws Exception {
    poller.bindTo(registry);

    poller.record(
        notification(
            "PS Scavenge",
            "end of minor GC",
            "Allocation Failure",
            1,
            12,
            new Pool("PS Eden Space", 100, 0, 160),
            new Pool("PS Survivor Space", 0, 5, 5),
            new Pool("PS Old Gen", 10, 12, 340),
            new Pool("Metaspace", 20, 20, -1)));
    poller.record(
        notification(
            "PS Scavenge",
            "end of minor GC",
            "Allocation Failure",
            2,
            8,
            new Pool("PS Eden Space", 80, 0, 160),
            new Pool("PS Old Gen", 12, 15, 340)));
    poller.record(
        notification(
            "PS MarkSweep",
            "end of major GC",
            "Ergonomics",
            1,
            150,
            new Pool("PS Eden Space", 0, 0, 160),
            new Pool("PS Old Gen", 15, 6, 340)));

    assertThat(pause("PS Scavenge").count()).isEqualTo(2);
    assertThat(pause("PS MarkSweep").count()).isEqualTo(1);
    assertThat(registry.find("jvm.gc.concurrent.phase.time").timers()).isEmpty();
    assertThat(poller.pauseSeconds()).isEqualTo(0.170);
    assertThat(registry.get("jvm.gc.memory.allocated").counter().count()).isEqualTo(80 * MB);
    assertThat(registry.get("jvm.gc.memory.promoted").counter().count()).isEqualTo(5 * MB);
    assertThat(registry.get("jvm.gc.live.data.size").gauge().value()).isEqualTo(6 * MB);
    assertThat(registry.get("jvm.gc.max.data.size").gauge().value()).isEqualTo(340 * MB);
    assertThat(registry.get("jvm.sentinel.gc.notifications.missed").counter().count()).isZero();
  }

  @Test
  void aBackgroundCmsCycleIsAConcurrentPhaseAndAForegroundCmsCollectionAPause() throws Exception {
    poller.bindTo(registry);

    poller.record(
        notification(
            "ParNew",
            "end of minor GC",
            "Allocation Failure",
            1,
            9,
            new Pool("Par Eden Space", 60, 0, 70),
            new Pool("CMS Old Gen", 300, 304, 400)));
    poller.record(
        notification(
            "ConcurrentMarkSweep",
            "end of major GC",
            "No GC",
            1,
            3_000,
            new Pool("Par Eden Space", 10, 20, 70),
            new Pool("CMS Old Gen", 304, 180, 400)));
    poller.record(
        notification(
            "ConcurrentMarkSweep",
            "end of major GC",
            "Allocation Failure",
            2,
            400,
            new Pool("Par Eden Space", 70, 0, 70),
            new Pool("CMS Old Gen", 390, 210, 400)));

    Timer cycle =
        registry
            .get("jvm.gc.concurrent.phase.time")
            .tags("gc", "ConcurrentMarkSweep", "action", "end of major GC", "cause", "No GC")
            .timer();
    assertThat(cycle.count()).isEqualTo(1);
    assertThat(pause("ParNew").count()).isEqualTo(1);
    assertThat(pause("ConcurrentMarkSweep").getId().getTag("cause"))
        .isEqualTo("Allocation Failure");
    assertThat(poller.pauseSeconds()).as("the 3 s background cycle is no pause").isEqualTo(0.409);
    assertThat(registry.get("jvm.gc.live.data.size").gauge().value()).isEqualTo(210 * MB);
    assertThat(registry.get("jvm.gc.memory.promoted").counter().count()).isEqualTo(4 * MB);
  }

  @Test
  void g1OnJdk8HasAYoungAndAnOldGenerationCollectorAndNoConcurrentBean() throws Exception {
    poller.bindTo(registry);

    poller.record(
        notification(
            "G1 Young Generation",
            "end of minor GC",
            "G1 Evacuation Pause",
            1,
            15,
            new Pool("G1 Eden Space", 50, 0, -1),
            new Pool("G1 Old Gen", 40, 45, 1024)));
    poller.record(
        notification(
            "G1 Old Generation",
            "end of major GC",
            "Allocation Failure",
            1,
            900,
            new Pool("G1 Eden Space", 0, 0, -1),
            new Pool("G1 Old Gen", 1000, 300, 1024)));

    assertThat(pause("G1 Young Generation").getId().getTag("action")).isEqualTo("end of minor GC");
    assertThat(pause("G1 Old Generation").getId().getTag("action")).isEqualTo("end of major GC");
    assertThat(registry.get("jvm.gc.live.data.size").gauge().value()).isEqualTo(300 * MB);
    assertThat(registry.get("jvm.gc.memory.promoted").counter().count()).isEqualTo(5 * MB);
  }

  @Test
  void jdk8CollectorNamesAreClassifiedAsPausesUnlessTheCauseIsNoGc() {
    for (String gc :
        new String[] {
          "PS Scavenge",
          "PS MarkSweep",
          "ParNew",
          "ConcurrentMarkSweep",
          "Copy",
          "MarkSweepCompact",
          "G1 Young Generation",
          "G1 Old Generation"
        }) {
      assertThat(GcPoller.isConcurrentPhase("Allocation Failure", gc)).as(gc).isFalse();
    }
    assertThat(GcPoller.isConcurrentPhase("No GC", "ConcurrentMarkSweep")).isTrue();
  }

  private Timer pause(String gc) {
    return registry.get("jvm.gc.pause").tag("gc", gc).timer();
  }
}
