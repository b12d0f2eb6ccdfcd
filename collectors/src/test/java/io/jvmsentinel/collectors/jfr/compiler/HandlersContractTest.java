package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.jvmsentinel.collectors.jfr.codecache.CodeCacheFullHandler;
import io.jvmsentinel.collectors.jfr.codecache.CodeCacheStatisticsHandler;
import io.jvmsentinel.collectors.jfr.codecache.CodeSweeperStatisticsHandler;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CompilerCpu;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/** What every code cache and JIT handler promises, checked on all of them together. */
class HandlersContractTest {
  private static final Tags TAGS = Tags.of("target", "t1");
  private static final String[] FIXTURES = {
    "codecache/codecache-sweeper-jdk17.jfr",
    "codecache/codecache-full-noflush-jdk17.jfr",
    "codecache/codecache-full-jdk21.jfr",
    "codecache/codecache-restart-jdk25.jfr",
    "compiler/compiler-deopt-jdk17.jfr",
    "compiler/compiler-selfstream-jdk25.jfr",
  };

  private static List<JfrEventHandler> handlers() {
    CompilerCpu cpu = new CompilerCpu(ThreadCpuLoadHandler.PERIOD);
    return List.of(
        new CodeCacheStatisticsHandler(TAGS),
        new CodeCacheFullHandler(),
        new CodeSweeperStatisticsHandler(TAGS),
        new CompilationHandler(TAGS),
        new CompilationFailureHandler(TAGS, MonitoringThreads.DEFAULT),
        new DeoptimizationHandler(TAGS, MonitoringThreads.DEFAULT),
        new JitRestartHandler(),
        new ThreadCpuLoadHandler(TAGS, cpu),
        new CpuLoadHandler(TAGS, cpu));
  }

  @Test
  void everyHandlerStatesItsSettingsExplicitlyAndWithoutStackTraces() {
    for (JfrEventHandler handler : handlers()) {
      EventSettings settings = handler.settings();
      Map<String, String> jfr = settings.toJfrSettings(handler.eventName());
      assertThat(jfr).containsEntry(handler.eventName() + "#stackTrace", "false");
      boolean periodic =
          handler.eventName().endsWith("Statistics") || handler.eventName().endsWith("CPULoad");
      assertThat(settings.period() != null).as(handler.eventName()).isEqualTo(periodic);
    }
    assertThat(new CompilationHandler(TAGS).settings().toJfrSettings("jdk.Compilation"))
        .containsEntry("jdk.Compilation#threshold", "0 ms");
  }

  @Test
  void withoutAnyEventOnlyTheFixedSeriesExistGaugesReadNaNAndCountersZero() {
    MeterRegistry registry = new SimpleMeterRegistry();
    handlers().forEach(h -> h.bindTo(registry));

    assertThat(registry.getMeters())
        .extracting(m -> m.getId().getName() + m.getId().getTagsAsIterable())
        .containsExactlyInAnyOrder(
            "jvm.jit.compiler.cpu.usage[tag(compiler=c1),tag(target=t1)]",
            "jvm.jit.compiler.cpu.usage[tag(compiler=c2),tag(target=t1)]",
            "jvm.jit.compiler.cpu.time[tag(compiler=c1),tag(target=t1)]",
            "jvm.jit.compiler.cpu.time[tag(compiler=c2),tag(target=t1)]",
            "jvm.jit.recompilations[tag(target=t1)]",
            "jvm.jit.recompilations.discarded[tag(target=t1)]",
            "jvm.jit.compiler.cpu.share[tag(target=t1)]");
    for (Meter meter : registry.getMeters()) {
      double value = meter.measure().iterator().next().getValue();
      if (meter.getId().getType() == Meter.Type.COUNTER) {
        assertThat(value).as(meter.getId().getName()).isZero();
      } else {
        assertThat(value).as(meter.getId().getName()).isNaN();
      }
    }
  }

  @Test
  void everyHandlerSurvivesEveryEventOfEveryFixtureEvenOfOtherTypes() {
    List<JfrEventHandler> handlers = handlers();
    MeterRegistry registry = new SimpleMeterRegistry();
    handlers.forEach(h -> h.bindTo(registry));
    for (String fixture : FIXTURES) {
      List<RecordedEvent> events =
          Recordings.events(
              fixture,
              "jdk.CodeCacheStatistics",
              "jdk.CodeCacheFull",
              "jdk.CodeSweeperStatistics",
              "jdk.Compilation",
              "jdk.CompilationFailure",
              "jdk.Deoptimization",
              "jdk.JITRestart",
              "jdk.ThreadCPULoad",
              "jdk.CPULoad",
              "jdk.GarbageCollection",
              "jdk.SweepCodeCache");
      for (JfrEventHandler handler : handlers) {
        assertThatCode(
                () -> {
                  events.forEach(handler::accept);
                  handler.streamStopped();
                  handler.streamStopped();
                })
            .as(handler.eventName() + " on " + fixture)
            .doesNotThrowAnyException();
      }
    }
  }
}
