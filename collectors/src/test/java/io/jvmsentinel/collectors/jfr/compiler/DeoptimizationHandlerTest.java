package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.compiler.DeoptimizationHandler.DeoptimizedMethod;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeoptimizationHandlerTest {
  // The recordings were made when the template lived in these fixtures; the generator now uses the
  // lab's io.jvmsentinel.lab.DeoptTemplate (the same code), which a new recording would name.
  private static final String TEMPLATE =
      "io.jvmsentinel.collectors.jfr.compiler.fixtures.DeoptTemplate";
  private final MeterRegistry registry = new SimpleMeterRegistry();

  @ParameterizedTest
  @ValueSource(strings = {"compiler/compiler-deopt-jdk17.jfr", "compiler/compiler-deopt-jdk25.jfr"})
  void countsByReasonAndActionAndNamesTheMostDeoptimisedMethods(String fixture) {
    DeoptimizationHandler handler =
        new DeoptimizationHandler(Tags.of("target", "t1"), MonitoringThreads.DEFAULT);
    handler.bindTo(registry);
    List<RecordedEvent> events = Recordings.events(fixture, DeoptimizationHandler.EVENT);
    events.forEach(handler::accept);

    assertThat(handler.total()).isEqualTo(events.size());
    assertThat(
            registry.get("jvm.jit.deoptimizations").counters().stream()
                .mapToDouble(Counter::count)
                .sum())
        .isEqualTo(events.size());
    long classChecks =
        events.stream()
            .filter(
                e ->
                    e.getString("reason").equals("class_check")
                        && e.getString("action").equals("maybe_recompile"))
            .count();
    assertThat(classChecks).isPositive();
    assertThat(
            registry
                .get("jvm.jit.deoptimizations")
                .tags("reason", "class_check", "action", "maybe_recompile")
                .counter()
                .count())
        .isEqualTo(classChecks);
    // The generator breaks four assumptions of DeoptTemplate per round.
    List<DeoptimizedMethod> top = handler.topMethods(4);
    assertThat(top)
        .extracting(DeoptimizedMethod::method)
        .contains(TEMPLATE + ".area", TEMPLATE + ".length");
    assertThat(top)
        .filteredOn(m -> m.method().equals(TEMPLATE + ".area"))
        .singleElement()
        .satisfies(m -> assertThat(m.reasons()).contains("class_check"));
  }

  @Test
  void skipsTheDeoptimisationsThatTheRemoteStreamCausesOnItsOwnThreads() {
    // In the fixture the stream's client ran inside the target; its thread is named explicitly.
    DeoptimizationHandler handler =
        new DeoptimizationHandler(
            Tags.of("target", "t1"), MonitoringThreads.DEFAULT.and("fixture-self-stream"));
    handler.bindTo(registry);
    List<RecordedEvent> events =
        Recordings.events("compiler/compiler-selfstream-jdk25.jfr", DeoptimizationHandler.EVENT);
    events.forEach(handler::accept);

    long onMain = events.stream().filter(e -> Recordings.thread(e).equals("main")).count();
    long onRmi =
        events.stream().filter(e -> Recordings.thread(e).startsWith("RMI TCP Connection")).count();
    assertThat(onRmi).isPositive();
    assertThat(handler.total()).isEqualTo(onMain);
    assertThat(handler.skipped()).isEqualTo(events.size() - onMain);
  }

  @Test
  void theTopMethodsAreForgottenWhenTheStreamStopsButTheTotalIsNot() {
    DeoptimizationHandler handler =
        new DeoptimizationHandler(Tags.of("target", "t1"), MonitoringThreads.DEFAULT);
    handler.bindTo(registry);
    Recordings.events("compiler/compiler-deopt-jdk17.jfr", DeoptimizationHandler.EVENT)
        .forEach(handler::accept);
    long total = handler.total();

    handler.streamStopped();

    assertThat(handler.topMethods(10)).isEmpty();
    assertThat(handler.total()).isEqualTo(total).isPositive();
  }
}
