package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/** Live, daemon and peak thread counts and the cumulative started count, in one read. */
public final class ThreadPoller implements JmxPoller {
  private static final String LIVE = "ThreadCount";
  private static final String DAEMON = "DaemonThreadCount";
  private static final String PEAK = "PeakThreadCount";
  private static final String STARTED = "TotalStartedThreadCount";

  private final Tags tags;
  private final LatestReading<Attributes> reading = new LatestReading<>();

  public ThreadPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "threads";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.JVM_THREADS_LIVE.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(LIVE)));
    Metric.JVM_THREADS_DAEMON.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(DAEMON)));
    Metric.JVM_THREADS_PEAK.gauge(registry, tags, reading, r -> r.gauge(a -> a.number(PEAK)));
    Metric.JVM_THREADS_STARTED.functionCounter(
        registry, tags, reading, r -> r.counter(a -> a.number(STARTED)));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    reading.update(Attributes.read(mbeans, ObjectNames.THREADING, LIVE, DAEMON, PEAK, STARTED));
  }

  /** The latest reading, or null while disconnected; detection reads the started count here. */
  public Attributes current() {
    return reading.current();
  }

  @Override
  public void disconnected() {
    reading.clear();
  }
}
