package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryPoolPollerTest {
  private static final long MB = 1024 * 1024;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final MemoryPoolPoller poller = new MemoryPoolPoller(Tags.of("target", "t1"));

  @Test
  void exportsEachSegmentOfASegmentedCodeCache() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .pool(
                "CodeHeap 'non-nmethods'",
                MemoryType.NON_HEAP,
                usage(1, 2, 2, 5),
                usage(1, 2, 2, 5))
            .pool(
                "CodeHeap 'profiled nmethods'",
                MemoryType.NON_HEAP,
                usage(2, 11, 12, 117),
                usage(2, 11, 12, 117))
            .pool(
                "CodeHeap 'non-profiled nmethods'",
                MemoryType.NON_HEAP,
                usage(2, 20, 21, 118),
                usage(2, 25, 26, 118))
            .pool("G1 Eden Space", MemoryType.HEAP, usage(24, 30, 40, -1), usage(24, 36, 40, -1));
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(poller.pools()).hasSize(4);
    assertThat(value("jvm.memory.used", "nonheap", "CodeHeap 'profiled nmethods'"))
        .isEqualTo(11 * MB);
    assertThat(value("jvm.memory.committed", "nonheap", "CodeHeap 'profiled nmethods'"))
        .isEqualTo(12 * MB);
    assertThat(value("jvm.memory.max", "nonheap", "CodeHeap 'profiled nmethods'"))
        .isEqualTo(117 * MB);
    assertThat(value("jvm.memory.peak", "nonheap", "CodeHeap 'profiled nmethods'"))
        .isEqualTo(11 * MB);
    assertThat(value("jvm.memory.peak", "nonheap", "CodeHeap 'non-profiled nmethods'"))
        .isEqualTo(25 * MB);
    assertThat(value("jvm.memory.used", "nonheap", "CodeHeap 'non-nmethods'")).isEqualTo(2 * MB);
    assertThat(value("jvm.memory.used", "heap", "G1 Eden Space")).isEqualTo(30 * MB);
    assertThat(value("jvm.memory.peak", "heap", "G1 Eden Space")).isEqualTo(36 * MB);
    assertThat(value("jvm.memory.max", "heap", "G1 Eden Space")).isEqualTo(-1);
  }

  @Test
  void exportsTheSingleCodeCachePoolWhenTheCacheIsNotSegmented() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .pool("CodeCache", MemoryType.NON_HEAP, usage(2, 7, 8, 8), usage(2, 8, 8, 8));
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(value("jvm.memory.used", "nonheap", "CodeCache")).isEqualTo(7 * MB);
    assertThat(value("jvm.memory.max", "nonheap", "CodeCache")).isEqualTo(8 * MB);
    assertThat(value("jvm.memory.peak", "nonheap", "CodeCache")).isEqualTo(8 * MB);
    assertThat(registry.find("jvm.memory.used").tag("id", "CodeHeap 'profiled nmethods'").gauge())
        .isNull();
  }

  /**
   * The pools of a JDK 8 target with the default Parallel collector, named as jdk8u
   * hotspot/src/share/vm/services/memoryService.cpp names them: one never-segmented {@code Code
   * Cache} (with a space; 240 MB reserved with tiered compilation).
   */
  @Test
  void recognisesTheSingleCodeCachePoolOfAJdk8Target() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .pool("Code Cache", MemoryType.NON_HEAP, usage(2, 30, 31, 240), usage(2, 32, 32, 240))
            .pool("Metaspace", MemoryType.NON_HEAP, usage(0, 20, 21, -1), usage(0, 20, 21, -1))
            .pool(
                "Compressed Class Space",
                MemoryType.NON_HEAP,
                usage(0, 2, 3, 1024),
                usage(0, 2, 3, 1024))
            .pool("PS Eden Space", MemoryType.HEAP, usage(32, 10, 32, 160), usage(32, 32, 32, 160))
            .pool("PS Survivor Space", MemoryType.HEAP, usage(5, 1, 5, 5), usage(5, 5, 5, 5))
            .pool("PS Old Gen", MemoryType.HEAP, usage(85, 40, 85, 340), usage(85, 40, 85, 340));
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(poller.pools())
        .filteredOn(MemoryPoolPoller.Pool::isCodeCache)
        .extracting(MemoryPoolPoller.Pool::id)
        .containsExactly("Code Cache");
    assertThat(value("jvm.memory.used", "nonheap", "Code Cache")).isEqualTo(30 * MB);
    assertThat(value("jvm.memory.max", "nonheap", "Code Cache")).isEqualTo(240 * MB);
    assertThat(value("jvm.memory.peak", "nonheap", "Code Cache")).isEqualTo(32 * MB);
  }

  @Test
  void aPoolKeepsItsSeriesAcrossReconnectsAndReadsNaNWhileDisconnected() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .pool("CodeCache", MemoryType.NON_HEAP, usage(2, 7, 8, 8), usage(2, 8, 8, 8));
    poller.bindTo(registry);
    poller.connected(target.server);
    poller.poll(target.server);

    poller.disconnected();
    assertThat(value("jvm.memory.used", "nonheap", "CodeCache")).isNaN();

    poller.connected(target.server);
    poller.poll(target.server);
    assertThat(value("jvm.memory.used", "nonheap", "CodeCache")).isEqualTo(7 * MB);
    assertThat(registry.find("jvm.memory.used").gauges()).hasSize(1);
  }

  @Test
  void aTargetWithThousandsOfMadeUpPoolsGetsAtMost32CleanOnesAndKeepsItsRealPools()
      throws Exception {
    MemoryUsage real = usage(2, 20, 21, 118);
    FakeTarget target =
        new FakeTarget()
            .pool("Metaspace", MemoryType.NON_HEAP, real, real)
            .pool("G1 Old Gen", MemoryType.HEAP, real, real);
    String hostile = "Evil<!channel>|#tag:x,y\n\u001bc\u202E";
    for (int i = 0; i < 1_000; i++) {
      target.pool(
          "java.lang:type=MemoryPool,name=" + javax.management.ObjectName.quote(hostile + i),
          hostile + i + "P".repeat(4_000),
          usage(1, 1, 1, 1));
    }
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(poller.pools()).hasSize(MemoryPoolPoller.MAX_POOLS);
    assertThat(registry.find("jvm.memory.used").gauges()).hasSize(MemoryPoolPoller.MAX_POOLS);
    assertThat(value("jvm.memory.used", "nonheap", "Metaspace")).isEqualTo(20 * MB);
    assertThat(value("jvm.memory.used", "heap", "G1 Old Gen")).isEqualTo(20 * MB);
    assertThat(registry.find("jvm.memory.used").gauges())
        .allSatisfy(
            gauge ->
                assertThat(gauge.getId().getTag("id"))
                    .hasSizeLessThanOrEqualTo(256)
                    .doesNotContain("\n", "\u001b", "\u202E"));
    assertThat(
            registry
                .get("jvm.sentinel.tag.values.capped")
                .tags("meter", "jvm.memory.used", "tag", "id")
                .functionCounter()
                .count())
        .isEqualTo(1_002 - MemoryPoolPoller.MAX_POOLS);
  }

  /** The pools of a JDK 21 target with G1, as the JVM names them. */
  private FakeTarget g1Target(MemoryUsage real) throws Exception {
    FakeTarget target = new FakeTarget();
    for (String heap : List.of("G1 Eden Space", "G1 Survivor Space", "G1 Old Gen")) {
      target.pool(heap, MemoryType.HEAP, real, real);
    }
    for (String nonHeap :
        List.of(
            "Metaspace",
            "Compressed Class Space",
            "CodeHeap 'non-nmethods'",
            "CodeHeap 'profiled nmethods'",
            "CodeHeap 'non-profiled nmethods'")) {
      target.pool(nonHeap, MemoryType.NON_HEAP, real, real);
    }
    return target;
  }

  @Test
  void fortyMadeUpPoolsWithShorterNamesTakeOnlyWhatTheJvmsOwnPoolsLeave() throws Exception {
    MemoryUsage real = usage(2, 20, 21, 118);
    FakeTarget target = g1Target(real);
    for (int i = 0; i < 40; i++) {
      // Unquoted and shorter than every real name: first in the order that used to decide.
      target.pool("java.lang:type=MemoryPool,name=p" + i, "p" + i, usage(1, 1, 1, 1));
    }
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(poller.pools()).hasSize(MemoryPoolPoller.MAX_POOLS);
    assertThat(poller.pools().subList(0, 8))
        .extracting(MemoryPoolPoller.Pool::id)
        .containsExactlyInAnyOrder(
            "G1 Eden Space",
            "G1 Survivor Space",
            "G1 Old Gen",
            "Metaspace",
            "Compressed Class Space",
            "CodeHeap 'non-nmethods'",
            "CodeHeap 'profiled nmethods'",
            "CodeHeap 'non-profiled nmethods'");
    assertThat(value("jvm.memory.used", "heap", "G1 Eden Space")).isEqualTo(20 * MB);
    assertThat(value("jvm.memory.used", "heap", "G1 Old Gen")).isEqualTo(20 * MB);
    assertThat(value("jvm.memory.used", "nonheap", "CodeHeap 'non-profiled nmethods'"))
        .isEqualTo(20 * MB);
    assertThat(registry.find("jvm.memory.used").gauges()).hasSize(MemoryPoolPoller.MAX_POOLS);
    assertThat(capped()).isEqualTo(40 - (MemoryPoolPoller.MAX_POOLS - 8));
  }

  @Test
  void theJvmsOwnPoolsAreReadAfterAReconnectEvenWhenMadeUpOnesFilledTheCap() throws Exception {
    MemoryUsage real = usage(2, 20, 21, 118);
    FakeTarget crowded = new FakeTarget();
    for (int i = 0; i < 40; i++) {
      crowded.pool("java.lang:type=MemoryPool,name=p" + i, "p" + i, usage(1, 1, 1, 1));
    }
    poller.bindTo(registry);
    poller.connected(crowded.server);
    poller.disconnected();

    // The target restarted with its real pools (and another collector): they are never capped.
    FakeTarget restarted = g1Target(real);
    poller.connected(restarted.server);
    poller.poll(restarted.server);

    assertThat(poller.pools()).hasSize(8);
    assertThat(value("jvm.memory.used", "heap", "G1 Old Gen")).isEqualTo(20 * MB);
  }

  @Test
  void aMadeUpPoolCannotTakeTheNameOfARealOneOrOfAnother() throws Exception {
    MemoryUsage real = usage(2, 20, 21, 118);
    FakeTarget target = g1Target(real);
    target.pool("java.lang:type=MemoryPool,name=a", "G1 Old Gen", usage(9, 9, 9, 9));
    target.pool("java.lang:type=MemoryPool,name=b", "twin", usage(9, 9, 9, 9));
    target.pool("java.lang:type=MemoryPool,name=c", "twin", usage(9, 9, 9, 9));
    poller.bindTo(registry);

    poller.connected(target.server);
    poller.poll(target.server);

    assertThat(poller.pools()).extracting(MemoryPoolPoller.Pool::id).doesNotHaveDuplicates();
    assertThat(poller.pools()).hasSize(9);
    assertThat(value("jvm.memory.used", "heap", "G1 Old Gen")).isEqualTo(20 * MB);
    assertThat(value("jvm.memory.used", "heap", "twin")).isEqualTo(9 * MB);
    assertThat(capped()).isEqualTo(2);
  }

  private double capped() {
    return registry
        .get("jvm.sentinel.tag.values.capped")
        .tags("meter", "jvm.memory.used", "tag", "id")
        .functionCounter()
        .count();
  }

  private double value(String name, String area, String id) {
    return registry.get(name).tags("target", "t1", "area", area, "id", id).gauge().value();
  }

  private static MemoryUsage usage(long initMb, long usedMb, long committedMb, long maxMb) {
    return new MemoryUsage(initMb * MB, usedMb * MB, committedMb * MB, maxMb < 0 ? -1 : maxMb * MB);
  }
}
