package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CompilerCpu;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The process's CPU ({@code jvmUser + jvmSystem} of {@code jdk.CPULoad}), the denominator of the
 * compiler CPU share. Same period as {@link ThreadCpuLoadHandler} so both describe the same
 * seconds. The first event after a recording starts reads 0 (measured on 17 and 25): the share is
 * NaN then, not infinite.
 */
public final class CpuLoadHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.CPULoad";

  private final Tags tags;
  private final CompilerCpu cpu;
  private final Duration period;

  /** {@code cpu} is shared with the {@link ThreadCpuLoadHandler} of the same target. */
  public CpuLoadHandler(Tags tags, CompilerCpu cpu) {
    this(tags, cpu, ThreadCpuLoadHandler.PERIOD);
  }

  public CpuLoadHandler(Tags tags, CompilerCpu cpu, Duration period) {
    this.tags = tags;
    this.cpu = cpu;
    this.period = period;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.periodic(period);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Metric.JVM_JIT_COMPILER_CPU_SHARE.gauge(registry, tags, cpu, CompilerCpu::share);
  }

  @Override
  public void accept(RecordedEvent event) {
    cpu.processLoad(
        EventFields.time(event),
        EventFields.number(event, "jvmUser") + EventFields.number(event, "jvmSystem"));
  }

  @Override
  public void streamStopped() {
    cpu.clear();
  }
}
