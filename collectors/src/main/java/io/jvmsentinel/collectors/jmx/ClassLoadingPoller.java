package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/** Loaded and unloaded class counts: class unloading goes with code cache flushing. */
public final class ClassLoadingPoller implements JmxPoller {
  private static final String LOADED = "LoadedClassCount";
  private static final String UNLOADED = "UnloadedClassCount";
  private static final String TOTAL_LOADED = "TotalLoadedClassCount";

  private final Tags tags;
  private final LatestReading<Attributes> reading = new LatestReading<>();

  public ClassLoadingPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "classes";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.JVM_CLASSES_LOADED.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(LOADED)));
    Metric.JVM_CLASSES_UNLOADED.functionCounter(
        registry, tags, reading, r -> r.counter(a -> a.number(UNLOADED)));
    Metric.JVM_CLASSES_LOADS.functionCounter(
        registry, tags, reading, r -> r.counter(a -> a.number(TOTAL_LOADED)));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    reading.update(
        Attributes.read(mbeans, ObjectNames.CLASS_LOADING, LOADED, UNLOADED, TOTAL_LOADED));
  }

  /** Classes loaded since the target started (loaded now plus unloaded), NaN without a reading. */
  public double totalLoaded() {
    return reading.gauge(a -> a.number(LOADED) + a.number(UNLOADED));
  }

  /** Classes unloaded since the target started, NaN while there is no current reading. */
  public double unloaded() {
    return reading.gauge(a -> a.number(UNLOADED));
  }

  @Override
  public void disconnected() {
    reading.clear();
  }
}
