package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jmx.CodeCacheStateParser.CodeCacheState;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ReflectionException;

/**
 * Whether the JIT is compiling, and how often it stopped and restarted because the code cache was
 * full, from the DiagnosticCommand {@code compilerCodecache} (about 2 to 3 ms on the target, one
 * call per poll). Works on JMX-only targets (JDK 11) too. A target without the DiagnosticCommand
 * MBean (not HotSpot) fails with a {@link JMException} every poll, counted by the caller.
 *
 * <p>JDK 8 has the MBean but not the command: jcmd {@code Compiler.codecache} arrived in JDK 9
 * (jdk8u {@code hotspot/src/share/vm/services/diagnosticCommand.cpp} registers no {@code
 * Compiler.*} command), and the MBean answers an unknown operation with a {@link
 * ReflectionException} around a {@link NoSuchMethodException} (jdk8u {@code
 * sun/management/DiagnosticCommandImpl.invoke}). That is thrown once, so the caller counts and logs
 * it once; the poller then stops asking until the next connection, and the gauge reads NaN. JDK 8
 * has no other JMX view of whether the JIT still compiles: HotSpot only prints "CodeCache is full.
 * Compiler has been disabled." to its own output.
 *
 * <p>JDK 17 kept {@code stopped_count=0} while printing {@code compilation: disabled} after a fill
 * (measured, {@code -XX:-UseCodeCacheFlushing}); JDK 21 and 25 count the stop. Alert on the status,
 * not on the counter alone.
 */
public final class CodeCacheStatePoller implements JmxPoller {
  static final String OPERATION = "compilerCodecache";
  private static final String[] SIGNATURE = {String[].class.getName()};

  private final Tags tags;
  private final LatestReading<CodeCacheState> reading = new LatestReading<>();
  // Set when this connection's target said it has no such command (JDK 8); the session thread
  // is the only caller, volatile for readers of commandMissing().
  private volatile boolean commandMissing;

  public CodeCacheStatePoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "codecache-state";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.JVM_JIT_COMPILATION_ENABLED.gauge(
        registry, tags, reading, r -> r.gauge(CodeCacheStatePoller::enabled));
    Metric.JVM_JIT_COMPILER_STOPS.functionCounter(
        registry, tags, reading, r -> r.counter(CodeCacheState::stoppedCount));
    Metric.JVM_JIT_COMPILER_RESTARTS.functionCounter(
        registry, tags, reading, r -> r.counter(CodeCacheState::restartedCount));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    if (commandMissing) {
      return;
    }
    Object text;
    try {
      text =
          mbeans.invoke(
              ObjectNames.DIAGNOSTIC_COMMAND, OPERATION, new Object[] {new String[0]}, SIGNATURE);
    } catch (ReflectionException e) {
      if (!(e.getCause() instanceof NoSuchMethodException)) {
        throw e;
      }
      commandMissing = true;
      // Said once per connection: name what is missing and why, not just the operation.
      throw new ReflectionException(
          new NoSuchMethodException(
              "the target has no DiagnosticCommand "
                  + OPERATION
                  + " (jcmd Compiler.codecache, JDK 9+): JIT compilation state unknown"),
          e.getMessage());
    }
    CodeCacheState parsed = CodeCacheStateParser.parse(text == null ? "" : text.toString());
    reading.update(
        keepCounters(
            parsed,
            reading.counter(CodeCacheState::stoppedCount),
            reading.counter(CodeCacheState::restartedCount)));
  }

  /** Whether the JIT still compiles: CodeCacheFull's signal on targets without JFR events. */
  @Override
  public void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException, JMException {
    poll(mbeans);
  }

  /** A counter the text lacks keeps its last value instead of becoming NaN. */
  private static CodeCacheState keepCounters(CodeCacheState s, double stops, double restarts) {
    return new CodeCacheState(
        s.compilationEnabled(),
        s.disabledReason(),
        Double.isNaN(s.stoppedCount()) ? stops : s.stoppedCount(),
        Double.isNaN(s.restartedCount()) ? restarts : s.restartedCount(),
        s.fullCount(),
        s.totalBlobs(),
        s.nmethods(),
        s.adapters(),
        s.heaps());
  }

  private static double enabled(CodeCacheState state) {
    Boolean enabled = state.compilationEnabled();
    return enabled == null ? Double.NaN : enabled ? 1 : 0;
  }

  /** The latest parsed state, null while disconnected or on a target without the command. */
  public CodeCacheState state() {
    return reading.current();
  }

  /** Whether the connected target lacks {@code compilerCodecache} (JDK 8). */
  public boolean commandMissing() {
    return commandMissing;
  }

  @Override
  public void disconnected() {
    reading.clear();
    // The next connection may be another JVM (the target restarted on a newer JDK).
    commandMissing = false;
  }
}
