package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.support.CompilerCpu;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JIT compiler threads use a large share of the process CPU (seed incident 4: 39% of all
 * samples in {@code CompileBroker::compiler_thread_loop}), which no Java profiler shows: HotSpot
 * hides compiler threads from ThreadMXBean; JFR's ThreadCPULoad sees them. Fires when the share
 * holds through most of a long window after warm-up (a new feature's first compilations are over
 * long before), or at once, even in warm-up, when the compilers are busy recompiling the same
 * methods under code cache pressure (the churn signature). Either way the compilers must still be
 * busy in the latest 10 s (at the resolve thresholds), and a firing alert is judged on those 10 s
 * alone: it resolves once the compilers calm down, not once five minutes have averaged it out.
 */
public final class CompilerCpuHighRule implements AlertRule {
  static final String SHARE = "share";
  static final String WINDOW = "windowSeconds";
  static final String SUSTAINED = "sustainedShare";
  static final String MIN_CORES = "minCores";
  // A firing alert holds at this share of the thresholds (hysteresis).
  private static final double RESOLVE = 0.7;

  @Override
  public String id() {
    return "CompilerCpuHigh";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "The JIT compiler threads burn a large share of the process CPU after warm-up.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(SHARE, 0.3, "fraction", "Compiler threads' share of the process CPU"),
        new RuleThreshold(
            WINDOW,
            300,
            "seconds",
            "Window judged in 6 sub-windows: the share must hold in most of them (first-time"
                + " compilation of new code is over well within it)"),
        new RuleThreshold(
            SUSTAINED,
            0.6,
            "fraction",
            "Share of the sub-windows in which the compiler share must hold"),
        new RuleThreshold(
            MIN_CORES,
            0.25,
            "cores",
            "The compiler threads must also use this much CPU: a mostly idle JVM that compiles a"
                + " little has a high share of very little"));
  }

  /** Compiler CPU in each sub-window of the long window. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(Rates.everySubWindow(Signal.COMPILER_CPU, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    boolean firing = context.firing("");
    double relax = firing ? RESOLVE : 1;
    double limit = context.threshold(SHARE) * relax;
    double minCores = context.threshold(MIN_CORES) * relax;
    double resolveShare = context.threshold(SHARE) * RESOLVE;
    double resolveCores = context.threshold(MIN_CORES) * RESOLVE;
    boolean now =
        busy(
            Latest.subWindow(context.history(), ChurnSignature.WINDOW), resolveShare, resolveCores);
    if (!now) {
      return List.of();
    }
    double sustainedShare = context.threshold(SUSTAINED);
    Duration window = Rates.seconds(context.threshold(WINDOW));
    // Long and high: after warm-up, compiler CPU that outlasts any burst of new code, since it
    // last fell under the resolve thresholds: a resolved episode's sub-windows stay in the 5
    // minutes, and a minute of new code compiled after it paged it again (ClassLoaderChurnRule).
    List<List<SignalSample>> slices = SubWindows.of(context.history(), window, SubWindows.PARTS);
    boolean sustained =
        !context.warmingUp()
            && SubWindows.sustainedSince(
                slices,
                slice ->
                    !Double.isNaN(SubWindows.mean(slice, SignalSample::compilerCpuShare))
                        && !busy(slice, resolveShare, resolveCores),
                slice -> busy(slice, limit, minCores),
                sustainedShare);
    // High while the same methods are compiled again under code cache pressure: the churn
    // signature, which needs no long wait and counts during warm-up too.
    ChurnSignature.CacheState cache =
        ChurnSignature.cacheState(context.history(), ChurnSignature.WINDOW);
    boolean churning =
        SubWindows.sustained(
            SubWindows.holding(
                context.history(),
                ChurnSignature.WINDOW,
                slice ->
                    busy(slice, limit, minCores)
                        && ChurnSignature.recompilingUnderPressure(
                            slice, context.warmingUp(), cache)),
            sustainedShare);
    if (!firing && !sustained && !churning) {
      return List.of();
    }
    double share =
        Rates.mean(
            context, sustained ? window : ChurnSignature.WINDOW, SignalSample::compilerCpuShare);
    if (Double.isNaN(share)) {
      return List.of();
    }
    Map<String, Double> cpu = context.history().latest().orElseThrow().details().compilerCpu();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("compilerShareOfProcessCpu", Math.round(share * 1000) / 1000.0);
    evidence.put("c1OfAllCpus", cpu.get(CompilerCpu.C1));
    evidence.put("c2OfAllCpus", cpu.get(CompilerCpu.C2));
    evidence.put("recompiling", churning);
    evidence.put("warmingUp", context.warmingUp());
    evidence.putAll(CodeCacheEvidence.base(context));
    return List.of(
        new Finding(
            "",
            "JIT compiler threads use "
                + Rates.percent(share)
                + " of the CPU of "
                + context.target(),
            (churning
                ? "The C1/C2 compiler threads take "
                    + Rates.percent(share)
                    + " of the process CPU compiling again methods they had already compiled,"
                    + " while the code cache is under pressure: codecache churn."
                : "Long after warm-up the C1/C2 compiler threads still take "
                    + Rates.percent(share)
                    + " of the process CPU. Usually the code cache is too small and code keeps"
                    + " being flushed and recompiled, or code keeps deoptimising."),
            "Check code cache occupancy and the CodeCacheChurn and DeoptimizationStorm alerts;"
                + " raise -XX:ReservedCodeCacheSize if the cache is near full.",
            evidence));
  }

  /**
   * The compiler threads take at least {@code share} of the process CPU and at least {@code
   * minCores} cores in the slice (the latter unknown in recordings made before it was sampled).
   */
  private static boolean busy(List<SignalSample> slice, double share, double minCores) {
    double cores = SubWindows.rate(slice, SignalSample::compilerCpuSeconds, sample -> true);
    return SubWindows.mean(slice, SignalSample::compilerCpuShare) >= share
        && (Double.isNaN(cores) || cores >= minCores);
  }
}
