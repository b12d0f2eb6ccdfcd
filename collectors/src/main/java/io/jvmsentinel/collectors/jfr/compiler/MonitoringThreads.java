package io.jvmsentinel.collectors.jfr.compiler;

import java.util.ArrayList;
import java.util.List;

/**
 * Recognises target threads that do the monitoring's own work, so the daemon does not detect
 * itself: starting a remote recording deoptimises code on the RMI threads that serve the JMX calls
 * (measured: 3 to 12 {@code jdk.Deoptimization} events on {@code RMI TCP Connection(n)-...} and one
 * on {@code RMI RenewClean-[...]} per stream start, JDK 17 and 25), and JFR's own threads ({@code
 * JFR Periodic Tasks}, {@code JFR Recorder Thread}, {@code JFR: Download Thread ...}) run
 * instrumented code too.
 *
 * <p>The rule is a name-prefix match. The cost: an application that serves its own RMI calls loses
 * the deoptimisations that happen on those threads. Compilation failures caused by JFR starting
 * ({@code "Jvmti state change invalidated dependencies"}) are reported on compiler threads, so no
 * thread rule can catch them; see {@link CompilationFailureHandler}.
 */
public final class MonitoringThreads {
  /** {@code RMI TCP Connection}, {@code RMI RenewClean} and every {@code JFR...} thread. */
  public static final MonitoringThreads DEFAULT =
      new MonitoringThreads(List.of("RMI TCP Connection", "RMI RenewClean", "JFR"));

  private final List<String> prefixes;

  public MonitoringThreads(List<String> prefixes) {
    this.prefixes = List.copyOf(prefixes);
  }

  /** These rules plus more name prefixes (e.g. an in-process agent's threads). */
  public MonitoringThreads and(String... morePrefixes) {
    List<String> all = new ArrayList<>(prefixes);
    all.addAll(List.of(morePrefixes));
    return new MonitoringThreads(all);
  }

  /** True when {@code threadName} belongs to the monitoring; false for null (no thread). */
  public boolean isMonitoring(String threadName) {
    if (threadName == null) {
      return false;
    }
    for (String prefix : prefixes) {
      if (threadName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
