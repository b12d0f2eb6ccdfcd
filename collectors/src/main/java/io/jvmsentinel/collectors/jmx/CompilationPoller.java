package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.KeyedReadings;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * Total JIT compilation time. The {@code compiler} tag (e.g. "HotSpot 64-Bit Tiered Compilers") is
 * only known once connected, so the counter is registered on first sight of each name.
 */
public final class CompilationPoller implements JmxPoller {
  private static final String NAME = "Name";
  private static final String TOTAL_TIME = "TotalCompilationTime";

  private final Tags tags;
  private KeyedReadings<String, Attributes> byCompiler;
  private volatile LatestReading<Attributes> active;

  public CompilationPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "compilation";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    byCompiler =
        new KeyedReadings<>(
            (compiler, reading) ->
                Metric.JVM_COMPILATION_TIME.functionCounter(
                    registry,
                    tags.and("compiler", compiler),
                    reading,
                    r -> r.counter(a -> a.number(TOTAL_TIME))));
  }

  @Override
  public void connected(MBeanServerConnection mbeans) throws IOException, JMException {
    active =
        byCompiler.get(
            Attributes.read(mbeans, ObjectNames.COMPILATION, NAME).string(NAME, "unknown"));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    LatestReading<Attributes> reading = active;
    if (reading != null) {
      reading.update(Attributes.read(mbeans, ObjectNames.COMPILATION, TOTAL_TIME));
    }
  }

  /** One attribute: the warm-up judgement reads the compile rate. */
  @Override
  public void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException, JMException {
    poll(mbeans);
  }

  /** Total compilation time in ms of the connected target, or NaN. */
  public double totalCompilationMillis() {
    LatestReading<Attributes> reading = active;
    return reading == null ? Double.NaN : reading.gauge(a -> a.number(TOTAL_TIME));
  }

  @Override
  public void disconnected() {
    byCompiler.clearAll();
  }
}
