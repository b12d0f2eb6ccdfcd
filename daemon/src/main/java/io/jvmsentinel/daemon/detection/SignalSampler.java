package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jfr.codecache.CodeSweeperStatisticsHandler;
import io.jvmsentinel.collectors.jfr.tls.TlsReport;
import io.jvmsentinel.collectors.jmx.Attributes;
import io.jvmsentinel.collectors.jmx.CodeCacheStateParser;
import io.jvmsentinel.collectors.jmx.JmxPollers;
import io.jvmsentinel.collectors.jmx.MemoryPoolPoller;
import io.jvmsentinel.collectors.jmx.ThreadPoller;
import io.jvmsentinel.collectors.support.CompilerCpu;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.target.TargetStatus;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Reads one {@link SignalSample} from what a target's pollers and handlers hold in memory. */
final class SignalSampler {
  private static final int TLS_PEERS = 50;
  // Per tick: enough for any window's top entries (a site busy over a window is busy in its ticks).
  private static final int SITES_PER_TICK = 16;
  private static final int METHODS_PER_TICK = 16;
  private static final int LOCKS_PER_TICK = 8;

  private SignalSampler() {}

  static SignalSample sample(WatchedTarget target, Instant now) {
    TargetStatus status = target.session().status();
    JmxPollers pollers = target.session().pollers();
    JfrHandlers jfr = target.jfr();
    boolean streaming = target.stream().streaming();
    // A JVM without the event (JDK 11) has no count to give: unknown, not zero.
    boolean deoptimizationsKnown =
        streaming && !target.stream().missingEvents().contains("jdk.Deoptimization");
    Attributes threads = pollers.threads().current();
    // While the stream is paused for a storm, the count its guard reads every second is fresher.
    long pausedStarts = target.stream().stormStartedThreads();
    double jmxStarts =
        pausedStarts >= 0
            ? pausedStarts
            : threads == null ? Double.NaN : threads.number("TotalStartedThreadCount");
    CodeSweeperStatisticsHandler.Sweeper sweeper = jfr.sweeper().latest();
    CodeCacheStateParser.CodeCacheState state = pollers.codeCacheState().state();
    double enabled =
        state == null || state.compilationEnabled() == null
            ? Double.NaN
            : state.compilationEnabled() ? 1 : 0;
    // Unknown while disconnected (NaN, skipped by rates): a fill counted before a reconnect must
    // not look like a new fill when the count comes back.
    double fills = state == null ? Double.NaN : state.fullCount();
    return new SignalSample(
        now,
        status.up(),
        status.up() ? 0 : Duration.between(status.since(), now).toMillis() / 1000.0,
        uptimeSeconds(pollers),
        streaming,
        target.stream().stormPaused(),
        streaming ? jfr.threadStarts().totalStarts() : jmxStarts,
        jfr.threadStarts().ownStarts(),
        streaming ? jfr.threadLifetimes().shortLivedCount() : Double.NaN,
        codeHeaps(pollers.memory()),
        enabled,
        jfr.codeCacheFull().seen() + fills,
        streaming ? jfr.compilations().total() : Double.NaN,
        deoptimizationsKnown ? jfr.deoptimizations().total() : Double.NaN,
        deoptimizationsKnown ? jfr.deoptimizations().madeNotEntrant() : Double.NaN,
        pollers.compilation().totalCompilationMillis(),
        // Fed by JFR, or by thread dumps on targets without it: one source at a time.
        jfr.compilerCpu().share(),
        sweeper == null ? Double.NaN : sweeper.methodsReclaimed(),
        pollers.gc().codeCacheCollections(),
        pollers.gc().pauseSeconds(),
        streaming ? tlsPeers(jfr.tlsHandshakes().snapshot(TLS_PEERS)) : Map.of(),
        streaming ? jfr.compilations().recompilations() : Double.NaN,
        jfr.compilerCpu().cpuSeconds(CompilerCpu.C1) + jfr.compilerCpu().cpuSeconds(CompilerCpu.C2),
        pollers.classes().totalLoaded(),
        pollers.classes().unloaded(),
        pollers.gc().unnotifiedPauseSeconds(),
        streaming ? (double) jfr.compilations().discardedRecompilations() : Double.NaN,
        details(target, status));
  }

  /** Drains the handlers' per-tick tables: call once per tick. */
  private static SignalSample.Details details(WatchedTarget target, TargetStatus status) {
    JfrHandlers jfr = target.jfr();
    var identity = status.identity();
    SignalSample.Target facts =
        new SignalSample.Target(
            status.address(),
            status.since(),
            status.lastError(),
            status.connectAttempts(),
            identity == null ? null : identity.javaVersion(),
            identity == null ? Map.of() : identity.vmOptions(),
            target.stream().state(),
            status.lastFailure());
    Map<String, Double> compilerCpu = new HashMap<>();
    compilerCpu.put(CompilerCpu.C1, jfr.compilerCpu().usage(CompilerCpu.C1));
    compilerCpu.put(CompilerCpu.C2, jfr.compilerCpu().usage(CompilerCpu.C2));
    return new SignalSample.Details(
        facts,
        jfr.threadStarts().drainInterval(SITES_PER_TICK),
        jfr.deoptimizations().drainInterval(METHODS_PER_TICK),
        jfr.compilations().drainRecompiled(METHODS_PER_TICK),
        jfr.codeCacheFull().recent(),
        compilerCpu,
        gcPauses(target),
        contention(target),
        target.session().pollers().threads().newThreads().drain(),
        jfr.compilations().drainDiscarded(METHODS_PER_TICK));
  }

  private static SignalSample.Contention contention(WatchedTarget target) {
    JmxPollers pollers = target.session().pollers();
    Attributes threads = pollers.threads().current();
    ThreadPoller.ThreadStates states = pollers.threads().states();
    return new SignalSample.Contention(
        threads == null ? Double.NaN : threads.number("ThreadCount"),
        states == null ? Double.NaN : states.count(Thread.State.BLOCKED),
        target.jfr().contention().drain(LOCKS_PER_TICK),
        pollers.lockHolders().drain(),
        target.contentionSignals());
  }

  private static Map<String, SignalSample.GcPauses> gcPauses(WatchedTarget target) {
    Map<String, SignalSample.GcPauses> pauses = new HashMap<>();
    // From the poller, not a registry search: that walks every meter of every target, per target
    // and tick (62% of a 50-target daemon's CPU samples, bench/fleet-scale.sh).
    for (Timer timer : target.session().pollers().gc().pauseTimers()) {
      pauses.put(
          timer.getId().getTag("gc") + " / " + timer.getId().getTag("cause"),
          new SignalSample.GcPauses(timer.max(TimeUnit.MILLISECONDS), timer.count()));
    }
    return pauses;
  }

  private static double uptimeSeconds(JmxPollers pollers) {
    var identity = pollers.identity().identity();
    if (identity == null || identity.startTimeMillis() <= 0) {
      return Double.NaN;
    }
    return (System.currentTimeMillis() - identity.startTimeMillis()) / 1000.0;
  }

  private static List<SignalSample.CodeHeap> codeHeaps(MemoryPoolPoller memory) {
    List<SignalSample.CodeHeap> heaps = new ArrayList<>();
    for (MemoryPoolPoller.Pool pool : memory.pools()) {
      if (pool.isCodeCache()) {
        MemoryPoolPoller.PoolUsage usage = memory.usage(pool);
        if (usage != null) {
          heaps.add(new SignalSample.CodeHeap(pool.id(), usage.used(), usage.max()));
        }
      }
    }
    return heaps;
  }

  private static Map<String, SignalSample.TlsPeer> tlsPeers(TlsReport report) {
    Map<String, SignalSample.TlsPeer> peers = new HashMap<>();
    for (TlsReport.Peer peer : report.peers()) {
      peers.put(
          peer.peer(),
          new SignalSample.TlsPeer(
              peer.handshakes(), peer.fullHandshakes(), peer.protocols(), peer.ciphers()));
    }
    return peers;
  }
}
