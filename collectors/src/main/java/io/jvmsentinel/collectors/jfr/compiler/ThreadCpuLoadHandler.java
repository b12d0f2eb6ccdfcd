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
 * CPU used by the JIT compiler threads ({@code C1 CompilerThread*}, {@code C2 CompilerThread*},
 * {@code Sweeper thread}), as the fraction of all CPUs that {@code jdk.ThreadCPULoad} reports (a
 * gauge of the last period) and as CPU seconds (a counter, for true averages at any interval).
 *
 * <p>Period 1 s: warm-up bursts last seconds (incident 5) and the event is cheap (one event per
 * thread that used CPU, about 5 to 10 per second on the fixtures). The {@code sweeper} series is
 * registered only once a sweeper thread shows up (JDK 19 and older).
 */
public final class ThreadCpuLoadHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.ThreadCPULoad";
  public static final Duration PERIOD = Duration.ofSeconds(1);

  private final Tags tags;
  private final CompilerCpu cpu;
  private final Duration period;
  private MeterRegistry registry;
  private boolean sweeperRegistered;

  /** {@code cpu} is shared with the {@link CpuLoadHandler} of the same target. */
  public ThreadCpuLoadHandler(Tags tags, CompilerCpu cpu) {
    this(tags, cpu, PERIOD);
  }

  public ThreadCpuLoadHandler(Tags tags, CompilerCpu cpu, Duration period) {
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
    this.registry = registry;
    register(CompilerCpu.C1);
    register(CompilerCpu.C2);
  }

  private void register(String compiler) {
    Tags compilerTags = tags.and("compiler", compiler);
    Metric.JVM_JIT_COMPILER_CPU_USAGE.gauge(registry, compilerTags, cpu, c -> c.usage(compiler));
    Metric.JVM_JIT_COMPILER_CPU_TIME.functionCounter(
        registry, compilerTags, cpu, c -> c.cpuSeconds(compiler));
  }

  @Override
  public void accept(RecordedEvent event) {
    cpu.threadLoad(
        EventFields.time(event),
        EventFields.threadName(event),
        EventFields.number(event, "user") + EventFields.number(event, "system"));
    if (!sweeperRegistered && cpu.sweeperSeen()) {
      sweeperRegistered = true;
      register(CompilerCpu.SWEEPER);
    }
  }

  @Override
  public void streamStopped() {
    cpu.clear();
  }
}
