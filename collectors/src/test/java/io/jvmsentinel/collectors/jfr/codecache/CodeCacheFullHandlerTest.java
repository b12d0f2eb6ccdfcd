package io.jvmsentinel.collectors.jfr.codecache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.collectors.jfr.codecache.CodeCacheFullHandler.CodeCacheFull;
import io.jvmsentinel.collectors.jfr.compiler.Recordings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

class CodeCacheFullHandlerTest {
  private final CodeCacheFullHandler handler = new CodeCacheFullHandler();

  @Test
  void recordsEachFullEventWithItsSegmentAndCountsAndRegistersNoMeter() {
    MeterRegistry registry = new SimpleMeterRegistry();
    handler.bindTo(registry);
    Recordings.events("codecache/codecache-full-jdk25.jfr", CodeCacheFullHandler.EVENT)
        .forEach(handler::accept);

    List<CodeCacheFull> recent = handler.recent();
    // jfr print --events CodeCacheFull: 3 events, all for the non-profiled heap, fullCount 1..3.
    assertThat(recent)
        .extracting(CodeCacheFull::segment)
        .containsOnly("CodeHeap 'non-profiled nmethods'");
    assertThat(recent).extracting(CodeCacheFull::fullCount).containsExactly(1L, 2L, 3L);
    assertThat(recent.get(0).thread()).isEqualTo("C2 CompilerThread0");
    assertThat(recent.get(0).codeCacheMaxCapacity()).isEqualTo(8 * 1024 * 1024);
    assertThat(recent.get(0).unallocatedCapacity()).isBetween(0L, 1024L);
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void jdk17FillsTheProfiledHeapWhenFlushingIsOff() {
    Recordings.events("codecache/codecache-full-noflush-jdk17.jfr", CodeCacheFullHandler.EVENT)
        .forEach(handler::accept);

    assertThat(handler.recent())
        .singleElement()
        .satisfies(full -> assertThat(full.segment()).isEqualTo("CodeHeap 'profiled nmethods'"));
  }

  @Test
  void aFillOfAnUnsegmentedCacheNamesTheCacheNotTheJvmsUnusedPlaceholder() {
    // JDK 21, -XX:-SegmentedCodeCache: jfr print says codeBlobType = "Unused" for both fills,
    // and "CodeCache" in each jdk.CodeCacheStatistics event of the same recording.
    Recordings.events("codecache/codecache-full-unsegmented-jdk21.jfr", CodeCacheFullHandler.EVENT)
        .forEach(handler::accept);

    assertThat(handler.recent())
        .hasSize(2)
        .extracting(CodeCacheFull::segment)
        .containsOnly(CodeCacheFullHandler.UNSEGMENTED_CACHE);
  }

  @Test
  void keepsOnlyTheNewestEventsButCountsAll() {
    List<RecordedEvent> events =
        Recordings.events("codecache/codecache-full-jdk21.jfr", CodeCacheFullHandler.EVENT);
    int fed = 0;
    while (fed <= CodeCacheFullHandler.CAPACITY) {
      for (RecordedEvent event : events) {
        handler.accept(event);
        fed++;
      }
    }

    assertThat(handler.recent()).hasSize(CodeCacheFullHandler.CAPACITY);
    assertThat(handler.seen()).isEqualTo(fed);
    handler.streamStopped();
    assertThat(handler.recent()).isEmpty();
  }

  @Test
  void eachFillBeforeARestartIsRecorded() {
    Recordings.events("codecache/codecache-restart-jdk25.jfr", CodeCacheFullHandler.EVENT)
        .forEach(handler::accept);

    assertThat(handler.recent())
        .extracting(CodeCacheFull::segment, CodeCacheFull::fullCount)
        .containsExactly(
            tuple("CodeHeap 'profiled nmethods'", 1L), tuple("CodeHeap 'profiled nmethods'", 2L));
  }
}
