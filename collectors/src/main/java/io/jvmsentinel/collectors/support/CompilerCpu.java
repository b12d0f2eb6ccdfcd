package io.jvmsentinel.collectors.support;

import io.jvmsentinel.collectors.jfr.compiler.CpuLoadHandler;
import io.jvmsentinel.collectors.jfr.compiler.ThreadCpuLoadHandler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * CPU of the JIT compiler threads per sampling period, shared by {@link ThreadCpuLoadHandler} and
 * {@link CpuLoadHandler}.
 *
 * <p>Implementation notes. {@code jdk.ThreadCPULoad} fires once per period for each thread that
 * used CPU in it, all with about the same timestamp; {@code jdk.CPULoad} fires in the same periodic
 * run. Events are grouped into periods by time: an event more than half a period after the start of
 * the open period closes it, and the closed period is published (so a value is one period late, and
 * never a half-summed one). A compiler with no event in the published period reads 0. When the
 * process events move on by more than 1.5 periods past the published one, a whole period went by
 * without any thread event (an idle JVM): every compiler reads 0 rather than a stale value. Those
 * times are the events' own: a stream that stops delivering (stalled, the target starved of CPU)
 * would keep its last period forever, so when no event has arrived for {@link #SILENCE} of the
 * daemon's time the usage and the share read NaN (unknown) until events flow again.
 *
 * <p>Beside the per-period usage, CPU seconds per compiler add up into a counter that only grows
 * (across stream restarts too): a 1 s load read by a 15 or 60 s scrape is one random second, while
 * {@code rate()} of the counter is the true average over any window. {@code jdk.ThreadCPULoad} is a
 * fraction of all the target's processors, so a period's seconds are {@code usage x processors x
 * period}; until the processor count is known (the first JMX poll) no seconds are counted.
 */
public final class CompilerCpu {
  public static final String C1 = "c1";
  public static final String C2 = "c2";
  public static final String SWEEPER = "sweeper";

  private static final int RECENT_PROCESS_LOADS = 4;
  // jdk.CPULoad arrives every period even from an idle JVM, a stream's flush every second and the
  // chunk feed's paced hand-out every 100 ms: 10 s without any is a feed that stopped delivering.
  static final Duration SILENCE = Duration.ofSeconds(10);

  private final Duration tolerance;
  private final Duration stale;
  private Instant openStart;
  private Map<String, Double> open = new HashMap<>();
  private Instant publishedStart;
  private Map<String, Double> published = Map.of();
  private Instant latest;
  private double processUsage = Double.NaN;
  private final ArrayDeque<Map.Entry<Instant, Double>> recentProcess = new ArrayDeque<>();
  private boolean sweeperSeen;
  private final double periodSeconds;
  private final Map<String, Double> cpuSeconds = new HashMap<>();
  private volatile DoubleSupplier processors = () -> Double.NaN;
  private final LongSupplier nanoTime;
  // When the last JFR event arrived (daemon time); null for the thread-dump source or before any.
  private Long arrivedNanos;

  public CompilerCpu(Duration period) {
    this(period, System::nanoTime);
  }

  /** {@code nanoTime}: the daemon's monotonic clock, which judges whether events still arrive. */
  public CompilerCpu(Duration period, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.tolerance = period.dividedBy(2);
    this.stale = period.plus(tolerance);
    this.periodSeconds = period.toNanos() / 1e9;
  }

  /** The target's available processors (JMX), which scale a thread's CPU load to seconds. */
  public void processors(DoubleSupplier processors) {
    this.processors = processors;
  }

  /** The compiler a thread belongs to ({@code c1}, {@code c2}, {@code sweeper}), or null. */
  public static String compilerOf(String threadName) {
    if (threadName == null) {
      return null;
    }
    if (threadName.startsWith("C1 CompilerThread")) {
      return C1;
    }
    if (threadName.startsWith("C2 CompilerThread")) {
      return C2;
    }
    return threadName.equals("Sweeper thread") ? SWEEPER : null;
  }

  /** One thread's CPU in one period, {@code user + system} as a fraction of all CPUs. */
  public synchronized void threadLoad(Instant time, String threadName, double usage) {
    advance(time);
    if (openStart == null) {
      openStart = time;
    }
    String compiler = compilerOf(threadName);
    if (compiler != null && !Double.isNaN(usage)) {
      open.merge(compiler, usage, Double::sum);
      sweeperSeen |= compiler.equals(SWEEPER);
      double count = processors.getAsDouble();
      if (count > 0) {
        addCpuSeconds(compiler, usage * count * periodSeconds);
      }
    }
  }

  /** CPU seconds a compiler's threads used, measured directly (the thread-dump source). */
  public synchronized void addCpuSeconds(String compiler, double seconds) {
    if (seconds > 0 && Double.isFinite(seconds)) {
      cpuSeconds.merge(compiler, seconds, Double::sum);
    }
  }

  /** CPU seconds one compiler's threads used since the daemon started watching; never falls. */
  public synchronized double cpuSeconds(String compiler) {
    return cpuSeconds.getOrDefault(compiler, 0.0);
  }

  /** The process's CPU in one period ({@code jvmUser + jvmSystem}), NaN when unknown. */
  public synchronized void processLoad(Instant time, double usage) {
    advance(time);
    processUsage = usage;
    if (recentProcess.size() == RECENT_PROCESS_LOADS) {
      recentProcess.removeFirst();
    }
    recentProcess.addLast(Map.entry(time, usage));
  }

  private void advance(Instant time) {
    arrivedNanos = nanoTime.getAsLong();
    if (latest == null || time.isAfter(latest)) {
      latest = time;
    }
    if (openStart != null && Duration.between(openStart, time).compareTo(tolerance) > 0) {
      published = Map.copyOf(open);
      publishedStart = openStart;
      open = new HashMap<>();
      openStart = null;
    }
  }

  /**
   * A whole period measured at once (the JMX fallback for targets without JFR: compiler-thread and
   * process CPU computed from two thread dumps), published as the last complete period.
   */
  public synchronized void measured(Instant time, Map<String, Double> perCompiler, double process) {
    open = new HashMap<>();
    openStart = null;
    published = Map.copyOf(perCompiler);
    publishedStart = time;
    latest = time;
    arrivedNanos = null;
    processUsage = process;
    if (recentProcess.size() == RECENT_PROCESS_LOADS) {
      recentProcess.removeFirst();
    }
    recentProcess.addLast(Map.entry(time, process));
  }

  /**
   * CPU of one compiler's threads in the last complete period; NaN before the first and while the
   * JFR events stopped arriving.
   */
  public synchronized double usage(String compiler) {
    if (publishedStart == null || silent()) {
      return Double.NaN;
    }
    if (Duration.between(publishedStart, latest).compareTo(stale) > 0) {
      return 0;
    }
    return published.getOrDefault(compiler, 0.0);
  }

  /**
   * Share of the process CPU used by all compiler threads in the last complete period (over the
   * process CPU of that same period when known, else the latest); NaN when the process used none.
   */
  public synchronized double share() {
    double compilers = usage(C1) + usage(C2) + usage(SWEEPER);
    double processUsage = processUsageOfPublishedPeriod();
    if (Double.isNaN(compilers) || Double.isNaN(processUsage) || processUsage <= 0) {
      return Double.NaN;
    }
    return compilers / processUsage;
  }

  private boolean silent() {
    return arrivedNanos != null && nanoTime.getAsLong() - arrivedNanos > SILENCE.toNanos();
  }

  private double processUsageOfPublishedPeriod() {
    if (publishedStart != null) {
      for (Map.Entry<Instant, Double> load : recentProcess) {
        if (Duration.between(publishedStart, load.getKey()).abs().compareTo(tolerance) <= 0) {
          return load.getValue();
        }
      }
    }
    return processUsage;
  }

  /** Whether a {@code Sweeper thread} ever used CPU (JDK 19 and older targets). */
  public synchronized boolean sweeperSeen() {
    return sweeperSeen;
  }

  /**
   * The stream stopped: forget the periods, values read NaN until the next complete period. The CPU
   * seconds are a counter and stay.
   */
  public synchronized void clear() {
    openStart = null;
    open = new HashMap<>();
    publishedStart = null;
    published = Map.of();
    latest = null;
    arrivedNanos = null;
    processUsage = Double.NaN;
    recentProcess.clear();
  }
}
