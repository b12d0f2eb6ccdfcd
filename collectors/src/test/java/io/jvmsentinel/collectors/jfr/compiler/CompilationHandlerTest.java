package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.IntervalCounts;
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

  /**
   * Each round of the fixture's program loads a fresh copy of DeoptTemplate, whose methods are then
   * compiled again under the same names (reloaded code, not discarded), and breaks the compiled
   * copy's assumptions, so the same copy's static helpers are deoptimised and compiled again
   * (discarded code). Only the second kind counts as discarded; the copies' own first compilations
   * (the nested Shape classes' area methods, compiled once per copy) never do.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "compiler/compiler-deopt-jdk11.jfr",
        "compiler/compiler-deopt-jdk17.jfr",
        "compiler/compiler-deopt-jdk25.jfr"
      })
  void tellsCodeDiscardedAndCompiledAgainFromClassesLoadedAgain(String fixture) {
    handler.bindTo(registry);
    Recordings.events(fixture, CompilationHandler.EVENT).forEach(handler::accept);

    List<IntervalCounts.Count> discarded = handler.drainDiscarded(20);
    List<IntervalCounts.Count> recompiled = handler.drainRecompiled(20);
    assertThat(handler.discardedRecompilations()).isGreaterThan(20);
    assertThat(handler.recompilations()).isGreaterThan(3 * handler.discardedRecompilations());
    assertThat(registry.get("jvm.jit.recompilations.discarded").functionCounter().count())
        .isEqualTo(handler.discardedRecompilations());
    assertThat(discarded)
        .extracting(IntervalCounts.Count::key)
        .anyMatch(method -> method.endsWith(".DeoptTemplate.area"))
        .anyMatch(method -> method.endsWith(".DeoptTemplate.length"))
        .noneMatch(method -> method.contains("$"));
    assertThat(recompiled)
        .extracting(IntervalCounts.Count::key)
        .anyMatch(method -> method.contains("DeoptTemplate$"));
    assertThat(discarded.stream().mapToLong(IntervalCounts.Count::count).sum())
        .isEqualTo(handler.discardedRecompilations());
  }

  @ParameterizedTest
  @ValueSource(strings = {"compiler/compiler-deopt-jdk11.jfr"})
  void aNewStreamStartsOverForBothKinds(String fixture) {
    handler.bindTo(registry);
    List<RecordedEvent> events = Recordings.events(fixture, CompilationHandler.EVENT);
    events.forEach(handler::accept);
    long discarded = handler.discardedRecompilations();
    long recompilations = handler.recompilations();

    handler.streamStopped();
    events.forEach(handler::accept);

    // A new JVM's class ids may repeat the old one's: after a restart, nothing it compiles counts
    // as compiled before except what this stream saw it compile.
    assertThat(handler.discardedRecompilations()).isEqualTo(2 * discarded);
    assertThat(handler.recompilations()).isEqualTo(2 * recompilations);
  }

  private static double sum(java.util.Collection<Counter> counters) {
    return counters.stream().mapToDouble(Counter::count).sum();
  }
}
