package io.jvmsentinel.collectors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CompilerCpuTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private long nanos;
  private final CompilerCpu cpu = new CompilerCpu(Duration.ofSeconds(1), () -> nanos);

  @Test
  void cpuSecondsAreLoadTimesProcessorsTimesPeriodAndCountFromTheFirstEvent() {
    cpu.processors(() -> 8);
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.25);
    cpu.threadLoad(at(0), "C2 CompilerThread1", 0.125);
    cpu.threadLoad(at(0), "C1 CompilerThread0", 0.0625);
    cpu.threadLoad(at(0), "main", 0.5);
    cpu.threadLoad(at(1000), "C2 CompilerThread0", 0.25);

    assertThat(cpu.cpuSeconds("c2")).isCloseTo((0.25 + 0.125 + 0.25) * 8, within(1e-9));
    assertThat(cpu.cpuSeconds("c1")).isCloseTo(0.5, within(1e-9));
    assertThat(cpu.cpuSeconds("sweeper")).isZero();
  }

  @Test
  void cpuSecondsNeverFallAcrossAStreamRestartAndAddTheThreadDumpSource() {
    cpu.processors(() -> 2);
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.5);
    cpu.clear();
    cpu.addCpuSeconds("c2", 3);
    cpu.addCpuSeconds("c2", -1); // a compiler thread exited: its CPU went with it

    assertThat(cpu.usage("c2")).as("the period gauge forgets").isNaN();
    assertThat(cpu.cpuSeconds("c2")).as("the counter does not").isCloseTo(4, within(1e-9));
  }

  @Test
  void noCpuSecondsUntilTheProcessorCountIsKnown() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.5);
    cpu.processors(() -> Double.NaN);
    cpu.threadLoad(at(1000), "C2 CompilerThread0", 0.5);

    assertThat(cpu.cpuSeconds("c2")).isZero();
  }

  @Test
  void aFeedThatStopsDeliveringReadsUnknownNotItsLastPeriodAndKnownAgainWhenEventsFlow() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.processLoad(at(0), 0.8);
    cpu.threadLoad(at(1000), "C2 CompilerThread0", 0.1);
    cpu.processLoad(at(1000), 0.4);
    assertThat(cpu.share()).isCloseTo(0.25, within(1e-9));

    nanos += CompilerCpu.SILENCE.toNanos();
    assertThat(cpu.share()).as("silent for exactly the limit: still the last period").isNotNaN();
    nanos += Duration.ofMillis(1).toNanos();
    assertThat(cpu.usage("c2")).as("a stalled stream's last period is not repeated").isNaN();
    assertThat(cpu.share()).isNaN();

    cpu.processLoad(at(2000), 0.4);
    assertThat(cpu.usage("c2")).as("events flow again").isCloseTo(0.1, within(1e-9));
  }

  @Test
  void theThreadDumpSourceIsNotJudgedByEventArrivals() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.measured(at(5000), java.util.Map.of("c2", 0.3), 0.6);
    nanos += CompilerCpu.SILENCE.multipliedBy(3).toNanos();

    assertThat(cpu.usage("c2")).isCloseTo(0.3, within(1e-9));
  }

  @Test
  void nothingIsKnownBeforeTheFirstCompletePeriod() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.processLoad(at(0), 0.5);

    assertThat(cpu.usage("c2")).isNaN();
    assertThat(cpu.share()).isNaN();
  }

  @Test
  void sumsTheThreadsOfEachCompilerOverTheLastCompletePeriod() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.threadLoad(at(0), "C2 CompilerThread1", 0.1);
    cpu.threadLoad(at(0), "C1 CompilerThread0", 0.05);
    cpu.threadLoad(at(0), "main", 0.5);
    cpu.processLoad(at(0), 0.7);
    cpu.threadLoad(at(1000), "C1 CompilerThread0", 0.01);
    cpu.processLoad(at(1000), 0.7);

    assertThat(cpu.usage("c2")).isCloseTo(0.3, within(1e-9));
    assertThat(cpu.usage("c1")).isCloseTo(0.05, within(1e-9));
    assertThat(cpu.usage("sweeper")).isZero();
    assertThat(cpu.share()).isCloseTo(0.35 / 0.7, within(1e-9));
  }

  @Test
  void theShareDividesByTheProcessCpuOfTheSamePeriod() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.processLoad(at(2), 0.4);
    cpu.processLoad(at(1001), 0.8);
    cpu.threadLoad(at(1001), "main", 0.6);

    assertThat(cpu.share()).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void aCompilerWithoutAnEventInThePeriodReadsZeroNotItsOldValue() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.threadLoad(at(1000), "main", 0.2);
    cpu.threadLoad(at(2000), "main", 0.2);

    assertThat(cpu.usage("c2")).isZero();
  }

  @Test
  void anIdlePeriodWithoutAnyThreadEventReadsZero() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.processLoad(at(1000), 0.2);
    assertThat(cpu.usage("c2")).isEqualTo(0.2);

    cpu.processLoad(at(2000), 0.01);
    cpu.processLoad(at(3000), 0.01);

    assertThat(cpu.usage("c2")).isZero();
    assertThat(cpu.share()).isZero();
  }

  @Test
  void theShareIsNaNWhileTheProcessUsedNoCpuAndAfterTheStreamStopped() {
    cpu.threadLoad(at(0), "C2 CompilerThread0", 0.2);
    cpu.processLoad(at(1000), 0);
    assertThat(cpu.share()).isNaN();

    cpu.clear();
    assertThat(cpu.usage("c2")).isNaN();
  }

  @Test
  void recognisesCompilerThreadNames() {
    assertThat(CompilerCpu.compilerOf("C2 CompilerThread12")).isEqualTo("c2");
    assertThat(CompilerCpu.compilerOf("C1 CompilerThread0")).isEqualTo("c1");
    assertThat(CompilerCpu.compilerOf("Sweeper thread")).isEqualTo("sweeper");
    assertThat(CompilerCpu.compilerOf("G1 Main Marker")).isNull();
    assertThat(CompilerCpu.compilerOf(null)).isNull();
  }

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }
}
