package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.collectors.jmx.MemoryPoolPoller;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.target.TargetStatus;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** One terminal line per interval with what the daemon sees of a target: the demo's view. */
final class LiveView {
  private static final double MB = 1024 * 1024;

  private final MeterRegistry registry;
  private final TargetSession session;
  private double lastStarted = Double.NaN;
  private double lastCompileMillis = Double.NaN;
  private long lastNanos = System.nanoTime();

  LiveView(MeterRegistry registry, TargetSession session) {
    this.registry = registry;
    this.session = session;
  }

  String line() {
    TargetStatus status = session.status();
    if (!status.up()) {
      return "  [" + session.name() + "] DOWN: " + status.lastError();
    }
    JmxPollers pollers = session.pollers();
    long now = System.nanoTime();
    double seconds = Math.max(1e-3, (now - lastNanos) / 1e9);
    lastNanos = now;

    var threads = pollers.threads().current();
    double started = threads == null ? Double.NaN : threads.number("TotalStartedThreadCount");
    double startRate = (started - lastStarted) / seconds;
    lastStarted = started;
    double compileMillis = pollers.compilation().totalCompilationMillis();
    double compileRate = (compileMillis - lastCompileMillis) / seconds;
    lastCompileMillis = compileMillis;

    double codeUsed = 0;
    double codeMax = 0;
    for (MemoryPoolPoller.Pool pool : pollers.memory().pools()) {
      if (pool.isCodeCache()) {
        MemoryPoolPoller.PoolUsage usage = pollers.memory().usage(pool);
        if (usage != null) {
          codeUsed += usage.used();
          codeMax += usage.max();
        }
      }
    }
    long gcPauses = 0;
    double gcMillis = 0;
    for (Timer timer : registry.find("jvm.gc.pause").tag("target", session.name()).timers()) {
      gcPauses += timer.count();
      gcMillis += timer.totalTime(TimeUnit.MILLISECONDS);
    }
    return String.format(
        Locale.ROOT,
        "  [%s] threads live %s, starts %s/s | code cache %.1f of %.1f MB (%.0f%%) | JIT %s ms/s"
            + " | GC pauses %d (%.0f ms total)",
        session.name(),
        threads == null ? "?" : String.format(Locale.ROOT, "%.0f", threads.number("ThreadCount")),
        format(startRate),
        codeUsed / MB,
        codeMax / MB,
        codeMax > 0 ? 100 * codeUsed / codeMax : 0,
        format(compileRate),
        gcPauses,
        gcMillis);
  }

  private static String format(double rate) {
    return Double.isNaN(rate) ? "-" : String.format(Locale.ROOT, "%.0f", rate);
  }
}
