package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jvmsentinel.collectors.support.CompilerCpu;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ThreadCpuLoadHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CompilerCpu cpu = new CompilerCpu(ThreadCpuLoadHandler.PERIOD);
  private final ThreadCpuLoadHandler threads =
      new ThreadCpuLoadHandler(Tags.of("target", "t1"), cpu);
  private final CpuLoadHandler process = new CpuLoadHandler(Tags.of("target", "t1"), cpu);

  @ParameterizedTest
  @ValueSource(strings = {"compiler/compiler-deopt-jdk17.jfr", "compiler/compiler-deopt-jdk25.jfr"})
  void publishesTheCompilerThreadsCpuOfTheLastCompletePeriod(String fixture) {
    threads.bindTo(registry);
    process.bindTo(registry);
    List<RecordedEvent> events =
        Recordings.events(fixture, ThreadCpuLoadHandler.EVENT, CpuLoadHandler.EVENT);
    for (RecordedEvent event : events) {
      (event.getEventType().getName().equals(CpuLoadHandler.EVENT) ? process : threads)
          .accept(event);
    }

    // Independently: a period is the thread events within half a period of its first one (the
    // last emission comes early, when the recording stops); the last period is still open.
    List<Instant> starts = new ArrayList<>();
    List<Double> c2 = new ArrayList<>();
    List<RecordedEvent> processLoads = new ArrayList<>();
    for (RecordedEvent e : events) {
      if (e.getEventType().getName().equals(CpuLoadHandler.EVENT)) {
        processLoads.add(e);
        continue;
      }
      if (starts.isEmpty()
          || Duration.between(starts.get(starts.size() - 1), e.getEndTime()).toMillis() > 500) {
        starts.add(e.getEndTime());
        c2.add(0.0);
      }
      if (Recordings.thread(e).startsWith("C2 CompilerThread")) {
        c2.set(c2.size() - 1, c2.get(c2.size() - 1) + e.getFloat("user") + e.getFloat("system"));
      }
    }
    assertThat(starts).hasSizeGreaterThanOrEqualTo(2);
    double expectedC2 = c2.get(c2.size() - 2);
    assertThat(expectedC2).isPositive();
    assertThat(gauge("jvm.jit.compiler.cpu.usage", "c2")).isCloseTo(expectedC2, within(1e-6));
    double c1 = gauge("jvm.jit.compiler.cpu.usage", "c1");
    double share = registry.get("jvm.jit.compiler.cpu.share").gauge().value();
    double sweeper = cpu.usage(CompilerCpu.SWEEPER);
    // The process CPU of the same period (emitted by the same periodic run).
    Instant published = starts.get(starts.size() - 2);
    RecordedEvent sameRun =
        processLoads.stream()
            .filter(e -> Duration.between(published, e.getEndTime()).abs().toMillis() <= 500)
            .findFirst()
            .orElseThrow();
    double processUsage = sameRun.getFloat("jvmUser") + sameRun.getFloat("jvmSystem");
    assertThat(share).isCloseTo((expectedC2 + c1 + sweeper) / processUsage, within(1e-6));
  }

  private double gauge(String name, String compiler) {
    return registry.get(name).tags("target", "t1", "compiler", compiler).gauge().value();
  }
}
