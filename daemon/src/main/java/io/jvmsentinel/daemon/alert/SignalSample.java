package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.jfr.codecache.CodeCacheFullHandler;
import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.collectors.jfr.threads.SiteStarts;
import io.jvmsentinel.collectors.jmx.LockHolders;
import io.jvmsentinel.collectors.support.IntervalCounts;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the daemon knows of one target at one instant, as the rules read it. Counters are cumulative
 * (the history turns them into rates); NaN means "not known for this target" (a JMX-only target has
 * no JFR signals, a JDK 20+ target no sweeper).
 *
 * @param up whether the JMX connection is up
 * @param downSeconds how long the target has been down (0 while up)
 * @param uptimeSeconds the target JVM's uptime
 * @param jfr whether the JFR stream is active (JFR-sourced counters are only comparable between
 *     samples that both have it)
 * @param jfrStormPaused whether the daemon closed the stream itself during a heavy thread storm
 *     (JFR-only rules then hold their state instead of resolving for lack of data)
 * @param threadStarts thread starts: from JFR while streaming, else the JMX total
 * @param ownThreadStarts of the JFR thread starts, those the monitoring itself caused (the JDK
 *     serving the daemon's JMX connection and JFR stream), told by their stacks: only starts with a
 *     stack can be told, so at start rates where stacks are sampled it counts fewer; 0 in
 *     recordings made before it existed
 * @param shortLivedThreads threads that ended within 1 s of starting (JFR)
 * @param codeHeaps code cache segments with use and maximum (JMX memory pools)
 * @param compilationEnabled 1 while the JIT compiles, 0 when it stopped (code cache full), NaN
 * @param codeCacheFullEvents code cache full events seen (JFR) plus fills counted by the JVM
 * @param compilations JIT compilations (JFR)
 * @param deoptimizations deoptimizations (JFR, the monitoring's own filtered out)
 * @param madeNotEntrant deoptimizations whose action made a compiled method not entrant (JFR)
 * @param compileMillis total JIT compilation time (JMX)
 * @param compilerCpuShare share of the process CPU burnt by the JIT compiler threads (JFR)
 * @param sweeperReclaimed methods flushed by the code cache sweeper (JFR, JDK 19 and older)
 * @param codeCacheGcs GCs whose cause was the code cache ("CodeCache GC Threshold", JDK 20+)
 * @param gcPauseSeconds time spent in GC pauses (JMX notifications, and the collections that ended
 *     while the connection was down, recovered at the next poll)
 * @param tlsPeers TLS handshakes per peer (JFR)
 * @param recompilations standard compilations of a method already compiled at the same tier on this
 *     stream (JFR): the same code compiled again, the signature of churn
 * @param compilerCpuSeconds CPU seconds the C1 and C2 compiler threads used (JFR, or thread dumps
 *     on JMX-only targets); boxed so a recording made before it existed reads as unknown (NaN)
 * @param classesLoaded classes loaded since the target started (JMX {@code LoadedClassCount} plus
 *     {@code UnloadedClassCount}); boxed so a recording made before it existed reads as unknown
 *     (NaN)
 * @param classesUnloaded classes unloaded since the target started (JMX {@code
 *     UnloadedClassCount}): a class is unloaded only with its class loader, so a rising count says
 *     loaders are being dropped; boxed like {@code classesLoaded}
 * @param unnotifiedGcPauseSeconds of {@code gcPauseSeconds}, the time of collections never notified
 *     because the connection was down when they ended (a freeze that timed out the polls), from the
 *     collectors' CollectionTime; boxed like {@code classesLoaded}
 * @param discardedRecompilations of {@code recompilations}, those of a method of the same loaded
 *     class (JFR), not a copy loaded again by a new class loader: compiled code discarded and
 *     compiled again; boxed like {@code classesLoaded}
 * @param details what happened in this tick (creator sites, deoptimised and recompiled methods) and
 *     what the target is: the rules build their evidence from these, never from live state
 */
public record SignalSample(
    Instant at,
    boolean up,
    double downSeconds,
    double uptimeSeconds,
    boolean jfr,
    boolean jfrStormPaused,
    double threadStarts,
    double ownThreadStarts,
    double shortLivedThreads,
    List<CodeHeap> codeHeaps,
    double compilationEnabled,
    double codeCacheFullEvents,
    double compilations,
    double deoptimizations,
    double madeNotEntrant,
    double compileMillis,
    double compilerCpuShare,
    double sweeperReclaimed,
    double codeCacheGcs,
    double gcPauseSeconds,
    Map<String, TlsPeer> tlsPeers,
    double recompilations,
    Double compilerCpuSeconds,
    Double classesLoaded,
    Double classesUnloaded,
    Double unnotifiedGcPauseSeconds,
    Double discardedRecompilations,
    Details details) {

  /** One code cache segment. */
  public record CodeHeap(String id, double used, double max) {
    public double occupancy() {
      return max > 0 ? used / max : Double.NaN;
    }
  }

  /** Cumulative handshakes to one peer, how many were full, and by protocol and cipher suite. */
  public record TlsPeer(
      double handshakes, double full, Map<String, Long> protocols, Map<String, Long> ciphers) {
    public TlsPeer {
      protocols = Map.copyOf(protocols);
      ciphers = Map.copyOf(ciphers);
    }

    public TlsPeer(double handshakes, double full) {
      this(handshakes, full, Map.of(), Map.of());
    }
  }

  /**
   * The target's identity and connection, for evidence.
   *
   * @param address where the daemon connects
   * @param since when the target last went up or down
   * @param lastError why the last connection attempt failed or was lost; null when none
   * @param connectAttempts connection attempts since the last success
   * @param javaVersion the target's {@code java.version}; null before the first connection
   * @param vmOptions the watched VM options (ReservedCodeCacheSize, ...)
   * @param jfrState whether JFR events flow from the target, or why not, as the JFR stream states
   *     it ("streaming", "the target has no FlightRecorder MBean, so only JMX metrics are
   *     collected", ...): what an alert says when it lacks JFR evidence; null in recordings made
   *     before it was sampled
   * @param lastFailure while down, when the daemon last found the target unreachable (the lost
   *     connection, its latest failed connect attempt, an overdue poll): between reconnect attempts
   *     nobody looks, so it has been seen down only until then; null while up, and in recordings
   *     made before it was sampled
   */
  public record Target(
      String address,
      Instant since,
      String lastError,
      long connectAttempts,
      String javaVersion,
      Map<String, String> vmOptions,
      String jfrState,
      Instant lastFailure) {
    public static final Target UNKNOWN =
        new Target("", Instant.EPOCH, null, 0, null, Map.of(), null, null);

    public Target {
      vmOptions = Map.copyOf(vmOptions);
    }
  }

  /** GC pauses of one collector and cause since the daemon started. */
  public record GcPauses(double maxMillis, long count) {}

  /**
   * What happened in one tick, as tables the rules sum over their windows, plus the target's facts.
   *
   * @param target identity and connection
   * @param creatorSites thread starts by creator site in this tick (JFR)
   * @param deoptimizedMethods deoptimisations by method in this tick, with reasons (JFR)
   * @param recompiledMethods recompilations by method in this tick, with tiers (JFR)
   * @param codeCacheFulls the latest code cache full events (JFR)
   * @param compilerCpu CPU of the C1 and C2 compiler threads, fraction of all CPUs
   * @param gcPauses GC pauses by {@code collector / cause}
   * @param contention threads and lock contention in this tick; {@link Contention#NONE} in
   *     recordings made before it existed
   * @param newThreads threads first seen alive in this tick by JMX, by name pattern ({@code
   *     pool-#-thread-#}); empty in recordings made before it existed
   * @param discardedMethods the recompilations of discarded code (the same loaded class) by method
   *     in this tick, with tiers (JFR); empty in recordings made before it existed
   */
  public record Details(
      Target target,
      SiteStarts.Interval creatorSites,
      List<IntervalCounts.Count> deoptimizedMethods,
      List<IntervalCounts.Count> recompiledMethods,
      List<CodeCacheFullHandler.CodeCacheFull> codeCacheFulls,
      Map<String, Double> compilerCpu,
      Map<String, GcPauses> gcPauses,
      Contention contention,
      Map<String, Long> newThreads,
      List<IntervalCounts.Count> discardedMethods) {
    public static final Details NONE =
        new Details(
            Target.UNKNOWN,
            SiteStarts.Interval.EMPTY,
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of());

    public Details {
      deoptimizedMethods = List.copyOf(deoptimizedMethods);
      recompiledMethods = List.copyOf(recompiledMethods);
      codeCacheFulls = List.copyOf(codeCacheFulls);
      compilerCpu = Map.copyOf(compilerCpu);
      gcPauses = Map.copyOf(gcPauses);
      contention = contention == null ? Contention.NONE : contention;
      newThreads = newThreads == null ? Map.of() : Map.copyOf(newThreads);
      discardedMethods = discardedMethods == null ? List.of() : List.copyOf(discardedMethods);
    }

    /** Details of a tick without contention data. */
    public Details(
        Target target,
        SiteStarts.Interval creatorSites,
        List<IntervalCounts.Count> deoptimizedMethods,
        List<IntervalCounts.Count> recompiledMethods,
        List<CodeCacheFullHandler.CodeCacheFull> codeCacheFulls,
        Map<String, Double> compilerCpu,
        Map<String, GcPauses> gcPauses) {
      this(
          target,
          creatorSites,
          deoptimizedMethods,
          recompiledMethods,
          codeCacheFulls,
          compilerCpu,
          gcPauses,
          Contention.NONE,
          Map.of(),
          List.of());
    }
  }

  /**
   * Threads and lock contention in one tick.
   *
   * @param liveThreads live threads (JMX), NaN when unknown
   * @param blockedThreads threads BLOCKED on a monitor (JMX thread states, every JDK), NaN when
   *     unknown
   * @param locks contended waits by lock in this tick (JFR, JDK 16+; empty without JFR)
   * @param holders who held the contended monitors, from a thread dump taken in this tick while
   *     threads were blocked (JMX, every JDK); null when none was taken
   * @param signals which contention signals the target gives and why the others are missing; null
   *     in recordings made before it was sampled
   */
  public record Contention(
      double liveThreads,
      double blockedThreads,
      LockContention locks,
      LockHolders holders,
      ContentionSignals signals) {
    public static final Contention NONE =
        new Contention(Double.NaN, Double.NaN, LockContention.EMPTY, null, null);

    public Contention {
      locks = locks == null ? LockContention.EMPTY : locks;
    }
  }

  public SignalSample {
    codeHeaps = List.copyOf(codeHeaps);
    tlsPeers = Map.copyOf(tlsPeers);
    compilerCpuSeconds = compilerCpuSeconds == null ? Double.NaN : compilerCpuSeconds;
    classesLoaded = classesLoaded == null ? Double.NaN : classesLoaded;
    classesUnloaded = classesUnloaded == null ? Double.NaN : classesUnloaded;
    unnotifiedGcPauseSeconds =
        unnotifiedGcPauseSeconds == null ? Double.NaN : unnotifiedGcPauseSeconds;
    discardedRecompilations =
        discardedRecompilations == null ? Double.NaN : discardedRecompilations;
    details = details == null ? Details.NONE : details;
  }
}
