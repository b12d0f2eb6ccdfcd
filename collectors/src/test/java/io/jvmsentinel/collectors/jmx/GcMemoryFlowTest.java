package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.MemoryUsage;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GcMemoryFlowTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final GcMemoryFlow flow = new GcMemoryFlow(registry, Tags.of("target", "t"));

  @Test
  void allocatedIsEdenGrowthBetweenCollectionsAndPromotedIsOldGrowthAcrossOne() {
    flow.collected(heap(30, 100), heap(0, 100), false); // the first: nothing to count from
    flow.collected(heap(50, 100), heap(0, 120), false);
    flow.collected(heap(70, 120), heap(5, 150), false);

    assertThat(count("jvm.gc.memory.allocated")).isEqualTo(50 + 70);
    assertThat(count("jvm.gc.memory.promoted")).isEqualTo(20 + 30);
    assertThat(gauge("jvm.gc.live.data.size")).as("no major collection yet").isNaN();
    assertThat(gauge("jvm.gc.max.data.size")).isEqualTo(1000);
  }

  @Test
  void aMajorCollectionSetsTheLiveDataSizeAndANewConnectionForgetsIt() {
    flow.collected(heap(10, 400), heap(0, 250), true);
    assertThat(gauge("jvm.gc.live.data.size")).isEqualTo(250);

    flow.reset();
    assertThat(gauge("jvm.gc.live.data.size")).isNaN();
    flow.collected(heap(40, 250), heap(0, 250), false);
    assertThat(count("jvm.gc.memory.allocated")).as("counted from the new connection").isZero();
  }

  private static Map<String, MemoryUsage> heap(long eden, long old) {
    return Map.of(
        "G1 Eden Space", new MemoryUsage(0, eden, eden, -1),
        "G1 Old Gen", new MemoryUsage(0, old, old, 1000),
        "Metaspace", new MemoryUsage(0, 7, 7, -1));
  }

  private double count(String name) {
    return registry.get(name).counter().count();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
