package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompilationHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CompilationHandler handler = new CompilationHandler(Tags.of("target", "t1"));

  @ParameterizedTest
  @ValueSource(strings = {"compiler/compiler-deopt-jdk17.jfr", "compiler/compiler-deopt-jdk25.jfr"})
  void countsEveryCompilationByCompilerTierOsrAndOutcome(String fixture) {
    handler.bindTo(registry);
    List<RecordedEvent> events = Recordings.events(fixture, CompilationHandler.EVENT);
    events.forEach(handler::accept);

    assertThat(events).hasSizeGreaterThan(500);
    assertThat(sum(registry.get("jvm.jit.compilations").counters())).isEqualTo(events.size());
    for (String compiler : List.of("c1", "c2")) {
      List<RecordedEvent> mine =
          events.stream().filter(e -> e.getString("compiler").equals(compiler)).toList();
      assertThat(mine).isNotEmpty();
      assertThat(sum(registry.get("jvm.jit.compilations").tag("compiler", compiler).counters()))
          .isEqualTo(mine.size());
      assertThat(
              registry
                  .get("jvm.jit.compilation.duration")
                  .tag("compiler", compiler)
                  .timer()
                  .count())
          .isEqualTo(mine.size());
      assertThat(registry.get("jvm.jit.compiled.code").tag("compiler", compiler).counter().count())
          .isEqualTo(mine.stream().mapToLong(e -> e.getLong("codeSize")).sum());
    }
    long osrC2 =
        events.stream()
            .filter(e -> e.getString("compiler").equals("c2") && e.getBoolean("isOsr"))
            .count();
    assertThat(
            sum(
                registry
                    .get("jvm.jit.compilations")
                    .tags("compiler", "c2", "tier", "4", "osr", "true")
                    .counters()))
        .isEqualTo(osrC2);
    assertThat(registry.get("jvm.jit.compilations").tag("outcome", "success").counters())
        .isNotEmpty();
  }

  private static double sum(java.util.Collection<Counter> counters) {
    return counters.stream().mapToDouble(Counter::count).sum();
  }
}
