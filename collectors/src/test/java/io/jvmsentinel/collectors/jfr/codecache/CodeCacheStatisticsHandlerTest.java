package io.jvmsentinel.collectors.jfr.codecache;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.compiler.Recordings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

class CodeCacheStatisticsHandlerTest {
  private static final String NON_PROFILED = "CodeHeap 'non-profiled nmethods'";
  private static final String PROFILED = "CodeHeap 'profiled nmethods'";
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CodeCacheStatisticsHandler handler =
      new CodeCacheStatisticsHandler(Tags.of("target", "t1"));

  @Test
  void exportsTheLastStatisticsOfEachSegmentAsTheRecordingGivesThem() {
    handler.bindTo(registry);
    List<RecordedEvent> events =
        Recordings.events("codecache/codecache-full-jdk25.jfr", CodeCacheStatisticsHandler.EVENT);
    Map<String, RecordedEvent> last = new HashMap<>();
    for (RecordedEvent event : events) {
      handler.accept(event);
      last.put(event.getString("codeBlobType"), event);
    }

    assertThat(last).hasSize(3);
    last.forEach(
        (segment, event) -> {
          assertThat(gauge("jvm.codecache.entries", segment))
              .isEqualTo(event.getLong("entryCount"));
          assertThat(gauge("jvm.codecache.methods", segment))
              .isEqualTo(event.getLong("methodCount"));
          assertThat(gauge("jvm.codecache.unallocated", segment))
              .isEqualTo(event.getLong("unallocatedCapacity"));
        });
    // jfr print: the non-profiled heap reached fullCount = 1 (the CodeCacheFull events say 1, 2,
    // 3, but the last two came at exit, after the last statistics).
    assertThat(full(NON_PROFILED)).isEqualTo(1);
    assertThat(full(PROFILED)).isZero();
  }

  @Test
  void jdk17ProfiledHeapFillsWithoutFlushing() {
    handler.bindTo(registry);
    Recordings.events(
            "codecache/codecache-full-noflush-jdk17.jfr", CodeCacheStatisticsHandler.EVENT)
        .forEach(handler::accept);

    assertThat(full(PROFILED)).isEqualTo(1);
    assertThat(full(NON_PROFILED)).isZero();
    assertThat(handler.segment(PROFILED).methods()).isPositive();
  }

  @Test
  void afterTheStreamStopsGaugesReadNaNAndTheFullCounterKeepsItsValue() {
    handler.bindTo(registry);
    Recordings.events("codecache/codecache-full-jdk21.jfr", CodeCacheStatisticsHandler.EVENT)
        .forEach(handler::accept);

    handler.streamStopped();

    assertThat(gauge("jvm.codecache.entries", NON_PROFILED)).isNaN();
    assertThat(full(NON_PROFILED)).isEqualTo(1);
    assertThat(handler.segment(NON_PROFILED)).isNull();
  }

  private double gauge(String name, String segment) {
    return registry.get(name).tags("target", "t1", "segment", segment).gauge().value();
  }

  private double full(String segment) {
    return registry
        .get("jvm.codecache.full")
        .tags("target", "t1", "segment", segment)
        .functionCounter()
        .count();
  }
}
