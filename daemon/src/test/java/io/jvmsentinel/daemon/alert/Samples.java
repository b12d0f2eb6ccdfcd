package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.collectors.jfr.threads.SiteStarts;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.collectors.jmx.LockHolders;
import io.jvmsentinel.collectors.support.IntervalCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds synthetic signal samples for rule tests: a healthy, connected JFR target by default. */
public final class Samples {
  public static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  private Instant at = T0;
  private boolean up = true;
  private double downSeconds = 0;
  private double uptime = 3600;
  private boolean jfr = true;
  private boolean stormPaused = false;
  private double threadStarts = 0;
  private double ownThreadStarts = 0;
  private double shortLived = 0;
  private List<SignalSample.CodeHeap> heaps =
      List.of(new SignalSample.CodeHeap("CodeHeap 'non-profiled nmethods'", 10e6, 120e6));
  private double compilationEnabled = 1;
  private double fullEvents = 0;
  private double compilations = 0;
  private double deopts = 0;
  private double notEntrant = 0;
  private double compileMillis = 0;
  private double compilerShare = 0.01;
  private double sweeper = Double.NaN;
  private double codeCacheGcs = 0;
  private double gcPause = 0;
  private double unnotifiedGcPause = Double.NaN;
  private Map<String, SignalSample.TlsPeer> tls = Map.of();
  private double recompilations = 0;
  private double compilerCpuSeconds = Double.NaN;
  private double classesLoaded = Double.NaN;
  private double classesUnloaded = Double.NaN;
  private double discardedRecompilations = Double.NaN;
  private SignalSample.Details details = SignalSample.Details.NONE;

  public Samples at(Instant value) {
    at = value;
    return this;
  }

  public Samples down(double seconds) {
    up = false;
    downSeconds = seconds;
    return this;
  }

  public Samples uptime(double seconds) {
    uptime = seconds;
    return this;
  }

  public Samples jmxOnly() {
    jfr = false;
    return this;
  }

  /** The daemon closed the JFR stream itself during a heavy thread storm. */
  public Samples stormPaused() {
    jfr = false;
    stormPaused = true;
    return this;
  }

  public Samples threadStarts(double value) {
    threadStarts = value;
    return this;
  }

  /** Of the thread starts so far, those the monitoring itself caused (cumulative). */
  public Samples ownThreadStarts(double value) {
    ownThreadStarts = value;
    return this;
  }

  public Samples shortLived(double value) {
    shortLived = value;
    return this;
  }

  public Samples heap(String id, double used, double max) {
    heaps = List.of(new SignalSample.CodeHeap(id, used, max));
    return this;
  }

  public Samples compilationEnabled(double value) {
    compilationEnabled = value;
    return this;
  }

  public Samples fullEvents(double value) {
    fullEvents = value;
    return this;
  }

  public Samples compilations(double value) {
    compilations = value;
    return this;
  }

  public Samples deopts(double total, double madeNotEntrant) {
    deopts = total;
    notEntrant = madeNotEntrant;
    return this;
  }

  /** Total JIT compilation time (JMX), milliseconds. */
  public Samples compileMillis(double value) {
    compileMillis = value;
    return this;
  }

  public Samples compilerShare(double value) {
    compilerShare = value;
    return this;
  }

  public Samples codeCacheGcs(double value) {
    codeCacheGcs = value;
    return this;
  }

  /** Of {@link #gcPause}, seconds recovered for collections never notified. */
  public Samples unnotifiedGcPause(double seconds) {
    unnotifiedGcPause = seconds;
    return this;
  }

  public Samples gcPause(double seconds) {
    gcPause = seconds;
    return this;
  }

  public Samples tls(Map<String, SignalSample.TlsPeer> peers) {
    tls = peers;
    return this;
  }

  public Samples sweeper(double reclaimed) {
    sweeper = reclaimed;
    return this;
  }

  public Samples compilerCpuSeconds(double value) {
    compilerCpuSeconds = value;
    return this;
  }

  /** Classes loaded and unloaded since the target started. */
  public Samples classes(double loaded, double unloaded) {
    classesLoaded = loaded;
    classesUnloaded = unloaded;
    return this;
  }

  public Samples recompilations(double value) {
    recompilations = value;
    return this;
  }

  /** What the session knows of the target (address, since, last error). */
  Samples target(SignalSample.Target target) {
    details = withTargetAndGcPauses(target, details.gcPauses());
    return this;
  }

  /** GC pauses by {@code collector / cause} since the daemon started. */
  Samples gcPauses(Map<String, SignalSample.GcPauses> pauses) {
    details = withTargetAndGcPauses(details.target(), pauses);
    return this;
  }

  private SignalSample.Details withTargetAndGcPauses(
      SignalSample.Target target, Map<String, SignalSample.GcPauses> pauses) {
    return new SignalSample.Details(
        target,
        details.creatorSites(),
        details.deoptimizedMethods(),
        details.recompiledMethods(),
        details.codeCacheFulls(),
        details.compilerCpu(),
        pauses);
  }

  /** Thread starts by creator site in this tick. */
  public Samples creators(SiteStarts... sites) {
    long attributed = 0;
    long own = 0;
    for (SiteStarts site : sites) {
      attributed += site.count();
      own += site.own() ? site.count() : 0;
    }
    details =
        new SignalSample.Details(
            details.target(),
            new SiteStarts.Interval(attributed, own, List.of(sites)),
            details.deoptimizedMethods(),
            details.recompiledMethods(),
            details.codeCacheFulls(),
            details.compilerCpu(),
            details.gcPauses());
    return this;
  }

  /** Threads and lock contention in this tick. */
  Samples contention(double live, double blocked, LockContention locks, LockHolders holders) {
    return contention(live, blocked, locks, holders, null);
  }

  /** Threads and lock contention in this tick, with what the target gives of them. */
  Samples contention(
      double live,
      double blocked,
      LockContention locks,
      LockHolders holders,
      ContentionSignals signals) {
    return threads(
        new SignalSample.Contention(live, blocked, locks, holders, signals), details.newThreads());
  }

  /** Threads first seen alive by JMX in this tick, by name pattern. */
  public Samples newThreads(Map<String, Long> byNamePattern) {
    return threads(details.contention(), byNamePattern);
  }

  private Samples threads(SignalSample.Contention contention, Map<String, Long> newThreads) {
    return tickTables(contention, newThreads, details.discardedMethods());
  }

  /** This tick's details with these contention, new threads and discarded-code tables. */
  private Samples tickTables(
      SignalSample.Contention contention,
      Map<String, Long> newThreads,
      List<IntervalCounts.Count> discardedMethods) {
    details =
        new SignalSample.Details(
            details.target(),
            details.creatorSites(),
            details.deoptimizedMethods(),
            details.recompiledMethods(),
            details.codeCacheFulls(),
            details.compilerCpu(),
            details.gcPauses(),
            contention,
            newThreads,
            discardedMethods);
    return this;
  }

  /** This tick's deoptimisations by method (JFR {@code jdk.Deoptimization}). */
  public Samples deoptimized(List<IntervalCounts.Count> methods) {
    details =
        new SignalSample.Details(
            details.target(),
            details.creatorSites(),
            methods,
            details.recompiledMethods(),
            details.codeCacheFulls(),
            details.compilerCpu(),
            details.gcPauses(),
            details.contention(),
            details.newThreads(),
            details.discardedMethods());
    return this;
  }

  /**
   * Of the recompilations so far, those of discarded code (cumulative), with this tick's methods: a
   * JVM without {@code jdk.Deoptimization} (JDK 11), whose deoptimisations are unknown.
   */
  public Samples discarded(double total, IntervalCounts.Count... methods) {
    deopts = Double.NaN;
    notEntrant = Double.NaN;
    discardedRecompilations = total;
    return tickTables(details.contention(), details.newThreads(), List.of(methods));
  }

  /** A creator site that started {@code count} threads named {@code threadName} in a tick. */
  public static SiteStarts site(String site, long count, String threadName) {
    return site(site, false, count, threadName);
  }

  /** The same, the monitoring's own starts ({@code own}) or the application's. */
  public static SiteStarts site(String site, boolean own, long count, String threadName) {
    return new SiteStarts(
        site,
        own,
        count,
        List.of(new ThreadStartReport.NameCount(threadName, count)),
        List.of(new ThreadStartReport.NameCount("main", count)),
        List.of(site + ":1", "Main.main:2"),
        false);
  }

  public SignalSample build() {
    return new SignalSample(
        at,
        up,
        downSeconds,
        uptime,
        jfr,
        stormPaused,
        threadStarts,
        ownThreadStarts,
        shortLived,
        heaps,
        compilationEnabled,
        fullEvents,
        compilations,
        deopts,
        notEntrant,
        compileMillis,
        compilerShare,
        sweeper,
        codeCacheGcs,
        gcPause,
        tls,
        recompilations,
        compilerCpuSeconds,
        classesLoaded,
        classesUnloaded,
        unnotifiedGcPause,
        discardedRecompilations,
        details);
  }

  /** The context a rule sees for target {@code orders}, past warm-up, at the latest sample. */
  static RuleContext context(AlertRule rule, SignalHistory history, Set<String> firing) {
    return context(rule, history, firing, WarmUp.Phase.OVER);
  }

  /** The context a rule sees past warm-up with some thresholds set, as a configuration would. */
  static RuleContext context(
      AlertRule rule, SignalHistory history, Set<String> firing, Map<String, Double> thresholds) {
    Map<String, Double> values = new HashMap<>(RuleSettings.DEFAULTS.thresholds(rule, "orders"));
    values.putAll(thresholds);
    return new RuleContext(
        "orders", history, values, firing, WarmUp.Phase.OVER, history.latest().orElseThrow().at());
  }

  /** The context of a target in its first minutes (warm-up starting), nothing firing. */
  static RuleContext warmingUp(AlertRule rule, SignalHistory history) {
    return context(rule, history, Set.of(), WarmUp.Phase.STARTING);
  }

  /** The context of a target whose warm-up is settling: past its minimum, compiling less. */
  static RuleContext settling(AlertRule rule, SignalHistory history, Set<String> firing) {
    return context(rule, history, firing, WarmUp.Phase.SETTLING);
  }

  private static RuleContext context(
      AlertRule rule, SignalHistory history, Set<String> firing, WarmUp.Phase warmingUp) {
    return new RuleContext(
        "orders",
        history,
        RuleSettings.DEFAULTS.thresholds(rule, "orders"),
        firing,
        warmingUp,
        history.latest().orElseThrow().at());
  }

  /**
   * A history sampled every 2 s for {@code seconds}, where {@code shape} sets each sample from the
   * seconds elapsed (cumulative counters are computed by the shape).
   */
  public static SignalHistory history(
      int seconds, java.util.function.BiConsumer<Samples, Integer> shape) {
    SignalHistory history = new SignalHistory(Duration.ofMinutes(15));
    List<SignalSample> samples = new ArrayList<>();
    for (int s = 0; s <= seconds; s += 2) {
      Samples sample = new Samples().at(T0.plusSeconds(s));
      shape.accept(sample, s);
      samples.add(sample.build());
    }
    samples.forEach(history::add);
    return history;
  }
}
