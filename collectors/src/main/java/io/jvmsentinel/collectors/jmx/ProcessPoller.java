package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.support.LatestReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * Process CPU, system CPU and load, open files, and uptime: two reads (OperatingSystem and
 * Runtime).
 */
public final class ProcessPoller implements JmxPoller {
  private static final String PROCESS_CPU_LOAD = "ProcessCpuLoad";
  private static final String PROCESS_CPU_TIME = "ProcessCpuTime";
  // JDK 14 renamed SystemCpuLoad to CpuLoad; older targets only have the former.
  private static final String CPU_LOAD = "CpuLoad";
  private static final String SYSTEM_CPU_LOAD = "SystemCpuLoad";
  private static final String PROCESSORS = "AvailableProcessors";
  private static final String LOAD_AVERAGE = "SystemLoadAverage";
  // UnixOperatingSystemMXBean only: absent (NaN) on Windows targets.
  private static final String OPEN_FILES = "OpenFileDescriptorCount";
  private static final String MAX_FILES = "MaxFileDescriptorCount";
  private static final String UPTIME = "Uptime";
  private static final String START_TIME = "StartTime";

  private final Tags tags;
  private final LatestReading<Attributes> os = new LatestReading<>();
  private final LatestReading<Attributes> runtime = new LatestReading<>();

  public ProcessPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "process";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.PROCESS_CPU_USAGE.gauge(
        registry, tags, os, r -> r.gauge(a -> a.number(PROCESS_CPU_LOAD)));
    Metric.PROCESS_CPU_TIME.functionCounter(
        registry, tags, os, r -> r.counter(a -> a.number(PROCESS_CPU_TIME)));
    Metric.SYSTEM_CPU_USAGE.gauge(registry, tags, os, r -> r.gauge(ProcessPoller::systemCpuLoad));
    Metric.SYSTEM_CPU_COUNT.gauge(registry, tags, os, r -> r.gauge(a -> a.number(PROCESSORS)));
    Metric.SYSTEM_LOAD_AVERAGE_1M.gauge(
        registry, tags, os, r -> r.gauge(a -> a.number(LOAD_AVERAGE)));
    Metric.PROCESS_FILES_OPEN.gauge(registry, tags, os, r -> r.gauge(a -> a.number(OPEN_FILES)));
    Metric.PROCESS_FILES_MAX.gauge(registry, tags, os, r -> r.gauge(a -> a.number(MAX_FILES)));
    Metric.PROCESS_UPTIME.timeGauge(
        registry, tags, runtime, TimeUnit.MILLISECONDS, r -> r.gauge(a -> a.number(UPTIME)));
    Metric.PROCESS_START_TIME.timeGauge(
        registry, tags, runtime, TimeUnit.MILLISECONDS, r -> r.gauge(a -> a.number(START_TIME)));
  }

  @Override
  public void poll(MBeanServerConnection mbeans) throws IOException, JMException {
    os.update(
        Attributes.read(
            mbeans,
            ObjectNames.OPERATING_SYSTEM,
            PROCESS_CPU_LOAD,
            PROCESS_CPU_TIME,
            CPU_LOAD,
            SYSTEM_CPU_LOAD,
            PROCESSORS,
            LOAD_AVERAGE,
            OPEN_FILES,
            MAX_FILES));
    runtime.update(Attributes.read(mbeans, ObjectNames.RUNTIME, UPTIME, START_TIME));
  }

  /** The target's process CPU time in ns, or NaN; detection uses it for compiler CPU shares. */
  public double processCpuTimeNanos() {
    return os.gauge(a -> a.number(PROCESS_CPU_TIME));
  }

  /** The target's available processors, or NaN before the first poll. */
  public double availableProcessors() {
    return os.gauge(a -> a.number(PROCESSORS));
  }

  private static double systemCpuLoad(Attributes a) {
    return a.has(CPU_LOAD) ? a.number(CPU_LOAD) : a.number(SYSTEM_CPU_LOAD);
  }

  @Override
  public void disconnected() {
    os.clear();
    runtime.clear();
  }
}
