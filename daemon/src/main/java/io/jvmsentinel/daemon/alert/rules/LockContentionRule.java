package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.collectors.jmx.LockHolders;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.ContentionSignals;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Threads spend a large share of their time blocked on one lock, sustained (seed incident 3:
 * JDK-8293562, a keep-alive cache that closed connections under its lock). The measure is the
 * average number of threads blocked on the lock's class: blocked time (JFR monitor enters and parks
 * on locks, each at least 10 ms) per second of wall time; it must be at least {@code
 * minBlockedThreads} and a {@code minShare} of the live threads in most sub-windows. Targets
 * without JFR are judged on the BLOCKED thread count of the JMX thread states instead. Evidence
 * names the class, where threads block (with stacks), the threads that held it (JFR {@code
 * previousOwner}) and, from a thread dump taken while threads were blocked, what the holder was
 * doing and where it took the lock.
 */
public final class LockContentionRule implements AlertRule {
  static final String MIN_BLOCKED_THREADS = "minBlockedThreads";
  static final String MIN_SHARE = "minShare";
  static final String WINDOW = "windowSeconds";
  static final String SUSTAINED = "sustainedShare";
  private static final int TOP_SITES = 5;
  private static final int STACK_FRAMES = 12;

  @Override
  public String id() {
    return "LockContention";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "Threads spend a large share of their time blocked on one lock.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(
            MIN_BLOCKED_THREADS,
            2,
            "threads",
            "Threads blocked on one lock class on average (blocked time per second of wall"
                + " time; JMX-only targets: BLOCKED threads)"),
        new RuleThreshold(
            MIN_SHARE,
            0.1,
            "ratio",
            "Those blocked threads as a share of the live threads: a few blocked threads among"
                + " thousands is not yet a throughput problem"),
        new RuleThreshold(
            WINDOW, 12, "seconds", "Window judged in " + SubWindows.PARTS + " sub-windows"),
        new RuleThreshold(
            SUSTAINED,
            0.5,
            "ratio",
            "Share of the sub-windows that must show the contention (one slow GC or one long"
                + " request fills one)"));
  }

  /** Blocked threads in each sub-window (JFR waits, or the JMX BLOCKED count). */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(Rates.everySubWindow(Signal.BLOCKED_THREADS, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    Optional<SignalSample> latest = context.history().latest();
    if (latest.isEmpty() || !latest.get().up()) {
      return List.of();
    }
    double relax = context.firing("") ? 0.7 : 1;
    double minThreads = context.threshold(MIN_BLOCKED_THREADS) * relax;
    double minShare = context.threshold(MIN_SHARE) * relax;
    Duration window = Rates.seconds(context.threshold(WINDOW));
    List<SignalSample> samples = context.history().window(window);
    boolean jfr = latest.get().jfr();
    List<LockContention.Lock> locks = WindowedEvidence.locks(withoutFirst(samples), TOP_SITES);
    if (jfr && locks.isEmpty()) {
      return List.of();
    }
    String lockClass = jfr ? locks.get(0).className() : null;
    int held =
        SubWindows.holding(
            SubWindows.of(context.history(), window, SubWindows.PARTS),
            jfr
                ? slice -> {
                  double live = SubWindows.mean(slice, s -> s.details().contention().liveThreads());
                  return contended(blockedOn(slice, lockClass), live, minThreads, minShare);
                }
                : slice -> blockedThroughMostOf(slice, minThreads, minShare));
    if (!SubWindows.sustained(held, context.threshold(SUSTAINED))) {
      return List.of();
    }
    return List.of(finding(context, samples, jfr ? locks.get(0) : null, window));
  }

  /** Average threads blocked on {@code lockClass} over a slice: blocked time per wall time. */
  static double blockedOn(List<SignalSample> slice, String lockClass) {
    double seconds =
        Duration.between(slice.get(0).at(), slice.get(slice.size() - 1).at()).toMillis() / 1e3;
    if (seconds <= 0) {
      return 0;
    }
    long nanos = 0;
    for (SignalSample sample : withoutFirst(slice)) {
      for (LockContention.Lock lock : sample.details().contention().locks().locks()) {
        if (lock.className().equals(lockClass)) {
          nanos += lock.blockedNanos();
        }
      }
    }
    return nanos / 1e9 / seconds;
  }

  private static boolean contended(
      double blocked, double live, double minThreads, double minShare) {
    return blocked >= minThreads && !(live > 0 && blocked / live < minShare);
  }

  /**
   * JMX thread states: the slice holds when threads were blocked in most of its readings, not on
   * average. A count of BLOCKED threads is an instant; one stall of every request thread (a cache
   * rebuilt under its lock for 4-5 s every 30 s) averaged 8 of 16 over a sub-window it only touched
   * at its edge, and so filled 3 of the 6 sub-windows of 12 s: LockContention paged for a stall
   * that held less than half of the window. Contention that lasts fills whole sub-windows.
   */
  static boolean blockedThroughMostOf(
      List<SignalSample> slice, double minThreads, double minShare) {
    List<SignalSample> readings = withoutFirst(slice);
    long blocked =
        readings.stream()
            .filter(
                s ->
                    contended(
                        s.details().contention().blockedThreads(),
                        s.details().contention().liveThreads(),
                        minThreads,
                        minShare))
            .count();
    return blocked * 2 > readings.size();
  }

  private static double blockedThreads(List<SignalSample> slice) {
    return SubWindows.mean(withoutFirst(slice), s -> s.details().contention().blockedThreads());
  }

  /** A slice starts with the sample before it, whose tick table belongs to the slice before. */
  private static List<SignalSample> withoutFirst(List<SignalSample> samples) {
    return samples.size() < 2 ? List.of() : samples.subList(1, samples.size());
  }

  private Finding finding(
      RuleContext context, List<SignalSample> samples, LockContention.Lock lock, Duration window) {
    LockHolders.Monitor holder = latestHolder(samples, lock == null ? null : lock.className());
    String lockClass =
        lock != null ? lock.className() : holder != null ? holder.className() : "an unknown lock";
    // Over the samples the rule judged, as the sub-windows did: a young history (the alert can
    // fire before the window is half full) must not print "unknown threads blocked".
    double live = SubWindows.mean(samples, s -> s.details().contention().liveThreads());
    double blocked =
        lock != null
            ? lock.blockedNanos() / 1e9 / Math.max(1, spanSeconds(samples))
            : blockedThreads(samples);
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("lockClass", lockClass);
    evidence.put("kind", lock == null ? "monitor-enter" : lock.kind());
    evidence.put("blockedThreadsAverage", round(blocked));
    evidence.put("liveThreads", Double.isNaN(live) ? null : Math.round(live));
    if (live > 0) {
      evidence.put("shareOfThreadsBlocked", round(blocked / live));
    }
    evidence.put("window", window.toSeconds() + "s");
    evidence.put(
        "source",
        lock != null
            ? "JFR jdk.JavaMonitorEnter / jdk.ThreadPark (waits of 10 ms or more)"
            : "JMX thread states (BLOCKED); no JFR stream, so no blocked time or sites by lock");
    // What this target cannot show (no JFR: no sites, owners or parks), so a thin finding says why.
    ContentionSignals signals = samples.get(samples.size() - 1).details().contention().signals();
    if (signals != null && !signals.missing().isEmpty()) {
      evidence.put("missingSignals", signals.missing());
    }
    if (lock != null) {
      evidence.put("threadsAffected", lock.threads());
      if (live > 0) {
        evidence.put("shareOfThreadsAffected", round(Math.min(1, lock.threads() / live)));
      }
      evidence.put("blockedSites", sites(lock.blockedSites(), true));
      evidence.put("owners", sites(lock.owners(), false));
    }
    if (holder != null) {
      Map<String, Object> h = new LinkedHashMap<>();
      h.put("thread", holder.holder());
      h.put("state", holder.holderState());
      h.put("lockedAt", holder.enteredAt());
      h.put("stack", holder.holderStack());
      h.put("blockedThreads", holder.blockedThreads());
      evidence.put("holder", h);
    }
    Optional<KnownCause> cause =
        lockClass.equals("an unknown lock") ? Optional.empty() : KnownCause.matchLock(lockClass);
    String holderText =
        holder == null || holder.enteredAt() == null
            ? ""
            : "; held by " + holder.holder() + " in " + holder.enteredAt();
    String summary =
        "Lock contention on "
            + context.target()
            + ": "
            + Rates.format(blocked)
            + " threads blocked on "
            + lockClass
            + " on average"
            + holderText;
    String explanation =
        "Threads of "
            + context.target()
            + " spend a large share of their time waiting for "
            + lockClass
            + (live > 0 ? " (" + Rates.percent(blocked / live) + " of the live threads)" : "")
            + ": whatever those threads serve runs that much slower. The holder's stack shows what"
            + " the lock is held for; slow work (I/O, a remote call, a close) under a lock"
            + " serialises every thread that needs it.";
    String action =
        "Look at the holder's stack and the blocked sites in the evidence; move slow work out of"
            + " the locked region, narrow the lock, or stop sharing it. A thread dump (jcmd <pid>"
            + " Thread.print) shows the same live.";
    if (cause.isPresent()) {
      evidence.put("knownCause", cause.get().id());
      summary += " (" + cause.get().title() + ")";
      explanation = cause.get().explanation();
    }
    String named =
        cause.map(KnownCause::id).orElse(lockClass.equals("an unknown lock") ? "" : lockClass);
    return new Finding(
        "",
        summary,
        explanation,
        action,
        EvidenceOrder.causeFirst(evidence, "lockClass", "knownCause", "holder", "blockedSites"),
        named);
  }

  /** The latest thread dump of the window that names a holder of {@code lockClass} (or any). */
  private static LockHolders.Monitor latestHolder(List<SignalSample> samples, String lockClass) {
    for (int i = samples.size() - 1; i >= 0; i--) {
      LockHolders dump = samples.get(i).details().contention().holders();
      if (dump == null) {
        continue;
      }
      for (LockHolders.Monitor monitor : dump.monitors()) {
        if (lockClass == null || monitor.className().equals(lockClass)) {
          return monitor;
        }
      }
    }
    return null;
  }

  private static List<Map<String, Object>> sites(List<LockContention.Site> sites, boolean stacks) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (LockContention.Site site : sites) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put(stacks ? "site" : "thread", site.site());
      s.put("blockedSeconds", round(site.nanos() / 1e9));
      if (stacks) {
        s.put("stack", site.stack().subList(0, Math.min(STACK_FRAMES, site.stack().size())));
      }
      out.add(s);
    }
    return out;
  }

  private static double spanSeconds(List<SignalSample> samples) {
    return samples.size() < 2
        ? 0
        : Duration.between(samples.get(0).at(), samples.get(samples.size() - 1).at()).toMillis()
            / 1e3;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
