package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jmx.CodeCacheStateParser.CodeCacheState;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * Whether the JIT is compiling, and how often it stopped and restarted because the code cache was
 * full, from the DiagnosticCommand {@code compilerCodecache} (about 2 to 3 ms on the target, one
 * call per poll). Works on JMX-only targets (JDK 11) too. A target without the command (not
 * HotSpot) fails with a {@link JMException}, counted by the caller.
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
    Object text =
        mbeans.invoke(
            ObjectNames.DIAGNOSTIC_COMMAND, OPERATION, new Object[] {new String[0]}, SIGNATURE);
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

  /** The latest parsed state, null while disconnected. */
  public CodeCacheState state() {
    return reading.current();
  }

  @Override
  public void disconnected() {
    reading.clear();
  }
}
