package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.support.CompilerCpu;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * Compiler-thread CPU for targets without a JFR stream (JDK 15 and older, or JFR off): two thread
 * dumps a poll apart give each compiler's CPU over the interval, and the process CPU time gives the
 * denominator of the share. Feeds the same {@link CompilerCpu} the JFR handlers feed, so the
 * metrics have one definition and, per target, one source at a time: this poller only works while
 * {@code active} says JFR is not streaming.
 *
 * <p>Cost: {@code threadPrint} brings the target to a safepoint (about 4 ms measured), once per
 * poll, and only on targets that have no JFR stream.
 *
 * <p>JDK 8 dumps (any before JDK 11) print no {@code cpu=} (see {@link ThreadDumpCpu}): there the
 * compiler CPU is unknown, so nothing is published (the meters read NaN, not 0) and, after the
 * first dump shows it, no more dumps are taken on that connection: they would stop the target for
 * nothing.
 */
public final class CompilerThreadCpuPoller implements JmxPoller {
  private static final String[] NO_ARGUMENTS = new String[0];

  private record Sample(long nanos, Map<String, Double> compilerMillis, double processCpuNanos) {}

  private final CompilerCpu cpu;
  private final BooleanSupplier active;
  private final Clock clock;
  private Sample previous;
  private volatile boolean cpuTimesMissing;

  public CompilerThreadCpuPoller(CompilerCpu cpu, BooleanSupplier active, Clock clock) {
    this.cpu = cpu;
    this.active = active;
    this.clock = clock;
  }

  @Override
  public String name() {
    return "compiler-cpu";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    // The compiler CPU meters belong to the JFR handlers; this poller only feeds their state.
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    if (!active.getAsBoolean()) {
      previous = null;
      return;
    }
    if (cpuTimesMissing) {
      return;
    }
    String dump =
        (String)
            mbeans.invoke(
                ObjectNames.DIAGNOSTIC_COMMAND,
                "threadPrint",
                new Object[] {NO_ARGUMENTS},
                new String[] {String[].class.getName()});
    ThreadDumpCpu.Reading read = ThreadDumpCpu.read(dump);
    if (read.cpuTimesMissing()) {
      cpuTimesMissing = true;
      previous = null;
      cpu.clear(); // no value from an earlier connection (another JDK) may linger as current
      return;
    }
    Attributes os =
        Attributes.read(
            mbeans, ObjectNames.OPERATING_SYSTEM, "ProcessCpuTime", "AvailableProcessors");
    Sample current =
        new Sample(System.nanoTime(), read.compilerMillis(), os.number("ProcessCpuTime"));
    double processors = os.number("AvailableProcessors");
    if (previous != null && processors > 0) {
      double capacity = (current.nanos() - previous.nanos()) / 1e9 * processors;
      Map<String, Double> usage = new HashMap<>();
      current
          .compilerMillis()
          .forEach(
              (compiler, millis) -> {
                // A compiler thread that exited takes its CPU with it: never a negative usage.
                double before = previous.compilerMillis().getOrDefault(compiler, 0.0);
                double seconds = Math.max(0, millis - before) / 1000;
                usage.put(compiler, seconds / capacity);
                cpu.addCpuSeconds(compiler, seconds);
              });
      double process = (current.processCpuNanos() - previous.processCpuNanos()) / 1e9 / capacity;
      cpu.measured(clock.instant(), usage, process);
    }
    previous = current;
  }

  /** Whether this connection's target prints no CPU times in its thread dumps (before JDK 11). */
  public boolean cpuTimesMissing() {
    return cpuTimesMissing;
  }

  @Override
  public void disconnected() {
    previous = null;
    // The next connection may be another JDK.
    cpuTimesMissing = false;
  }
}
