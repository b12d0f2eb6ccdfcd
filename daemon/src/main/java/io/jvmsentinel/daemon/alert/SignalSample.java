package io.jvmsentinel.daemon.alert;

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
 * @param gcPauseSeconds time spent in GC pauses (JMX notifications)
 * @param tlsPeers TLS handshakes per peer (JFR)
 */
public record SignalSample(
    Instant at,
    boolean up,
    double downSeconds,
    double uptimeSeconds,
    boolean jfr,
    boolean jfrStormPaused,
    double threadStarts,
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
    Map<String, TlsPeer> tlsPeers) {

  /** One code cache segment. */
  public record CodeHeap(String id, double used, double max) {
    public double occupancy() {
      return max > 0 ? used / max : Double.NaN;
    }
  }

  /** Cumulative handshakes to one peer, and how many of them were full. */
  public record TlsPeer(double handshakes, double full) {}

  public SignalSample {
    codeHeaps = List.copyOf(codeHeaps);
    tlsPeers = Map.copyOf(tlsPeers);
  }
}
