package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Compiled code is deoptimised at a high, sustained rate after warm-up: in most 4 s sub-windows of
 * the last 24 s. A one-off invalidation (a class hierarchy change, a new code path) deoptimises its
 * methods within a second or two and the JIT recompiles them; deoptimisation that outlasts that is
 * a loop of compile and throw away, and is reported while it is happening. While warm-up is
 * extended past its minimum (the compile rate still falling), a storm of events pages only when the
 * same methods are deoptimised all through the window.
 *
 * <p>A JVM before JDK 14 has no {@code jdk.Deoptimization} event, and on every JDK code invalidated
 * through its dependencies (a call site retargeted, a class redefined, a class hierarchy changed)
 * is thrown away without one: 2 events in 20 s of the lab's callsite-storm on JDK 17, which
 * recompiles eight methods 4 times a second each. Without a storm of events the rule judges what
 * deoptimisation leaves behind: methods of a class that is still loaded compiled again at a tier
 * they were compiled at before (their code was discarded), at {@code minRecompileRate}, the same
 * methods all through the window, while the code cache does not explain it: it stays under 80%,
 * does not fill, and is not a small cache (under 32 MB) being flushed (else the cache discards the
 * code: CodeCacheChurn). A larger roomy cache's sweeper reclaims only code made not entrant: the
 * storm's own (ChurnSignature). A class loaded again by a new class loader does not count: its
 * methods are new code (ClassLoaderChurn); and on a JVM with the events, neither does code
 * discarded while classes keep being reloaded at ClassLoaderChurn's rates
 * (InferredDeoptimizationStorm).
 */
public final class DeoptimizationStormRule implements AlertRule {
  static final String RATE = "minRate";
  static final String WINDOW = "windowSeconds";
  static final String RECOMPILE_RATE = "minRecompileRate";

  /** The evidence key of the rate an inferred storm (no storm of deoptimisation events) is by. */
  public static final String INFERRED_RATE = "discardedCodeRecompiledPerSecond";

  static final double SUSTAINED_SHARE = 0.6;

  // Methods named in most sub-windows carry at least this share of what the per-tick tables name:
  // the same code, again and again. The lab's storms (5 and 48 methods): 95% to 100% of their
  // recompilations; new-message-type's waves on JDK 11: 0%.
  static final double RECURRING = 0.5;

  @Override
  public String id() {
    return "DeoptimizationStorm";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "Compiled methods keep being deoptimised after warm-up.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(RATE, 5, "deoptimizations/s", "Sustained deoptimisation rate"),
        new RuleThreshold(
            WINDOW,
            24,
            "seconds",
            "Window judged in 6 sub-windows: the rate must hold in most of them to fire; a firing"
                + " alert is judged on the latest one at half the rate"),
        // Higher than minRate's deoptimisations: after a new message type's burst of class_check
        // traps, its stages go on being recompiled for half a minute (new-message-type on JDK 11:
        // up to 4.5/s alone, lumps of 10/s on a loaded host).
        new RuleThreshold(
            RECOMPILE_RATE,
            8,
            "recompilations/s",
            "On a JVM without jdk.Deoptimization (before JDK 14): the rate of compilations of a"
                + " method of the same loaded class at a tier it was compiled at before, which"
                + " stands for the deoptimisations"));
  }

  @Override
  public boolean needsJfr() {
    return true;
  }

  /** Deoptimisations (JFR) in each sub-window; code cache readings for the inferred form. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(
        Rates.everySubWindow(Signal.DEOPTIMIZATIONS, window),
        Rates.everyWindow(Signal.CODE_HEAPS, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context) || context.warmUp() == WarmUp.Phase.STARTING) {
      return List.of();
    }
    Duration window = Rates.seconds(context.threshold(WINDOW));
    double rate =
        Rates.known(context.history(), SignalSample::deoptimizations)
            ? context.history().rate(window, SignalSample::deoptimizations, SignalSample::jfr)
            : Double.NaN;
    boolean storm =
        !Double.isNaN(rate) && storming(context, window, SignalSample::deoptimizations, RATE);
    if (context.warmingUp()
        && storm
        && !context.firing("")
        && !sameMethodsThroughout(context, window)) {
      // Settling: past warm-up's minimum while the compile rate still falls, as it does in a JIT
      // settling, but also in one stopped or starved (a GC storm, a stalled process) or one whose
      // minute before compiled an incident's code. A storm is told then by its own signature: the
      // same methods deoptimised all through the window, where settling deoptimises many methods
      // once or twice each (the inferred form below asks the same of the recompiled ones).
      return List.of();
    }
    if (!storm) {
      // Before JDK 14 there is no deoptimisation event; on any JDK, code invalidated through its
      // dependencies (a call site retargeted, a class redefined) is thrown away without one.
      return InferredDeoptimizationStorm.evaluate(context, window, rate);
    }
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("deoptimizationsPerSecond", Math.round(rate * 100) / 100.0);
    evidence.put(
        "madeNotEntrantPerSecond",
        Math.round(
                context.history().rate(window, SignalSample::madeNotEntrant, SignalSample::jfr)
                    * 100)
            / 100.0);
    List<Map<String, Object>> methods =
        WindowedEvidence.describe(
            WindowedEvidence.methods(
                context.history().window(window), SignalSample.Details::deoptimizedMethods, 10),
            "reasons");
    evidence.put("mostDeoptimizedMethods", methods);
    String top = methods.isEmpty() ? "" : ", most often " + methods.get(0).get("method");
    return List.of(
        new Finding(
            "",
            "Deoptimisation storm on " + context.target() + ": " + Rates.format(rate) + "/s" + top,
            "Compiled code is being thrown away "
                + Rates.format(rate)
                + " times a second after warm-up. Typical causes: class loading that breaks"
                + " inlining assumptions (class hierarchy changes), uncommon traps hit over and"
                + " over (a type or branch profile that keeps flipping), or code cache flushing.",
            "Look at the most deoptimised methods and their reasons in the evidence; stabilise"
                + " the types they see, or check CodeCacheChurn.",
            EvidenceOrder.causeFirst(evidence, "mostDeoptimizedMethods")));
  }

  private static boolean sameMethodsThroughout(RuleContext context, Duration window) {
    return recurringShare(
            SubWindows.of(context.history(), window, SubWindows.PARTS),
            SignalSample.Details::deoptimizedMethods)
        >= RECURRING;
  }

  /**
   * The share of what one of the slices' per-tick method tables counts (deoptimised or discarded
   * methods) that is of methods named in most slices (as many as a sustained rate needs). A slice's
   * first sample is the one before it: its table belongs to the slice before.
   */
  static double recurringShare(
      List<List<SignalSample>> slices,
      Function<SignalSample.Details, List<IntervalCounts.Count>> table) {
    Map<String, Long> counts = new HashMap<>();
    Map<String, Integer> slicesNamedIn = new HashMap<>();
    for (List<SignalSample> slice : slices) {
      Set<String> named = new HashSet<>();
      for (SignalSample sample : slice.subList(Math.min(1, slice.size()), slice.size())) {
        for (IntervalCounts.Count count : table.apply(sample.details())) {
          counts.merge(count.key(), count.count(), Long::sum);
          named.add(count.key());
        }
      }
      named.forEach(method -> slicesNamedIn.merge(method, 1, Integer::sum));
    }
    long all = 0;
    long recurring = 0;
    for (Map.Entry<String, Long> method : counts.entrySet()) {
      all += method.getValue();
      if (SubWindows.sustained(slicesNamedIn.get(method.getKey()), SUSTAINED_SHARE)) {
        recurring += method.getValue();
      }
    }
    return all == 0 ? 0 : recurring / (double) all;
  }

  /**
   * Sustained: the rate of {@code count} (deoptimisations, or the inferred form's recompilations)
   * holds at {@code threshold} in most sub-windows, so the burst of a class hierarchy change or a
   * new code path (a second or two of deoptimisations) does not average into a storm, and since the
   * rate last fell under half of it, so a storm that ended and resolved is not paged again on its
   * sub-windows still in the window and a short tail after it (ClassLoaderChurnRule). Once firing,
   * the storm lasts while the latest sub-window keeps half the rate.
   */
  static boolean storming(
      RuleContext context,
      Duration window,
      ToDoubleFunction<SignalSample> count,
      String threshold) {
    double limit = context.threshold(threshold);
    if (context.firing("")) {
      return holds(Latest.subWindow(context.history(), window), count, limit / 2);
    }
    List<List<SignalSample>> slices = SubWindows.of(context.history(), window, SubWindows.PARTS);
    // Fell under half: a rate below it (an unknown rate, NaN, is no fall).
    return SubWindows.sustainedSince(
        slices,
        slice -> SubWindows.rate(slice, count, SignalSample::jfr) < limit / 2,
        slice -> holds(slice, count, limit),
        SUSTAINED_SHARE);
  }

  private static boolean holds(
      List<SignalSample> slice, ToDoubleFunction<SignalSample> count, double limit) {
    return SubWindows.rate(slice, count, SignalSample::jfr) >= limit;
  }
}
