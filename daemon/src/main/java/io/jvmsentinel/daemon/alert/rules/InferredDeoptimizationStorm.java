package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DeoptimizationStorm without a storm of {@code jdk.Deoptimization} events (a JVM before JDK 14 has
 * none; code invalidated through its dependencies leaves none on any JDK), judged from the code
 * deoptimisation throws away: methods of a class that is still loaded compiled again at a tier they
 * had been compiled at (JFR {@code jdk.Compilation} with the method's class), sustained, while the
 * code cache does not explain it (under 80%, not full, not a small cache being flushed), and
 * recurring: a storm throws the same code away again and again, so the same methods are recompiled
 * all through the window, be they five or fifty, while a wave after a change (a new message type
 * failing the type checks of 200 stages) recompiles each of many methods once or twice, for 20 to
 * 30 s on a loaded JDK 11 host. Measured on the lab's deopt-storm: 16 such recompilations a second
 * on JDK 11 and on JDK 17 (where 36 deoptimisations a second caused them), all of five methods;
 * none sustained in class loader churn, plugin reloads or codecache churn in a 4 MB cache.
 */
final class InferredDeoptimizationStorm {
  /** The evidence key of the share of recompilations that are of recurring methods. */
  static final String RECURRING_SHARE = "shareOfMethodsRecompiledThroughout";

  static final String UNKNOWN_DEOPTIMIZATIONS =
      "unknown: this JVM has no jdk.Deoptimization event (JDK 14+); inferred from methods of the"
          + " same loaded class compiled again";

  private static final String NO_EVENT =
      "This JVM has no jdk.Deoptimization event (it arrived in JDK 14), so the deoptimisations are"
          + " inferred from the recompilations they cause, without their reasons. Typical causes:"
          + " class loading that breaks inlining assumptions (class hierarchy changes), or"
          + " uncommon traps hit over and over (a type or branch profile that keeps flipping).";
  private static final String WITHOUT_EVENTS =
      "JFR reports few deoptimisations meanwhile: code invalidated through its dependencies is"
          + " thrown away without a jdk.Deoptimization event. Typical causes: call sites retargeted"
          + " over and over (a dynamic language runtime invalidating its switch points), classes"
          + " redefined again and again (an agent retransforming them), or classes loaded that"
          + " break the inlining of the methods' callers (class hierarchy changes).";

  private static final int TOP = 10;

  private InferredDeoptimizationStorm() {}

  /**
   * Judged at the rule's {@code minRecompileRate} over its window; {@code deoptimizations} is the
   * rate of deoptimisation events over it, NaN on a JVM without them.
   */
  static List<Finding> evaluate(RuleContext context, Duration window, double deoptimizations) {
    double rate =
        context.history().rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    if (Double.isNaN(rate)
        || ChurnSignature.cacheDiscardsCode(context.history(), ChurnSignature.WINDOW)
        || classLoaderChurnDiscards(context, window, deoptimizations)
        || !DeoptimizationStormRule.storming(
            context,
            window,
            SignalSample::discardedRecompilations,
            DeoptimizationStormRule.RECOMPILE_RATE)) {
      return List.of();
    }
    double share =
        DeoptimizationStormRule.recurringShare(
            SubWindows.of(context.history(), window, SubWindows.PARTS),
            SignalSample.Details::discardedMethods);
    if (!(share >= DeoptimizationStormRule.RECURRING)) {
      return List.of();
    }
    List<IntervalCounts.Count> top =
        WindowedEvidence.methods(
            context.history().window(window), SignalSample.Details::discardedMethods, TOP);
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put(DeoptimizationStormRule.INFERRED_RATE, Math.round(rate * 100) / 100.0);
    evidence.put(RECURRING_SHARE, Math.round(share * 100) / 100.0);
    evidence.put(
        "deoptimizationsPerSecond",
        Double.isNaN(deoptimizations)
            ? UNKNOWN_DEOPTIMIZATIONS
            : Math.round(deoptimizations * 100) / 100.0);
    List<Map<String, Object>> methods = WindowedEvidence.describe(top, "tiers");
    evidence.put("mostRecompiledMethods", methods);
    String most = methods.isEmpty() ? "" : ", most often " + methods.get(0).get("method");
    return List.of(
        new Finding(
            "",
            "Deoptimisation storm on "
                + context.target()
                + ": compiled code thrown away and recompiled "
                + Rates.format(rate)
                + "/s"
                + most,
            "Methods of classes that stay loaded are compiled again at the same tier "
                + Rates.format(rate)
                + " times a second after warm-up ("
                + Math.round(share * 100)
                + "% of them by methods recompiled in most of the last "
                + window.toSeconds()
                + " s: the same code, again and again), with a code cache that has room: their"
                + " compiled code keeps being deoptimised. "
                + (Double.isNaN(deoptimizations) ? NO_EVENT : WITHOUT_EVENTS),
            "Look at the most recompiled methods in the evidence and stabilise the types and"
                + " branches they see; -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation on a"
                + " copy of the service gives each deoptimisation's reason.",
            EvidenceOrder.causeFirst(evidence, "mostRecompiledMethods")));
  }

  /**
   * On a JVM with deoptimisation events (JDK 14+) that reports few of them, classes loaded anew
   * with their methods compiled again at ClassLoaderChurn's rates: the discarded code is that
   * churn's, ClassLoaderChurn's to report (it judges such a JVM by its events). The lab's
   * churn-from-boot in a 48 MB cache on JDK 17 (2026-11-27): 5 copies loaded a second, 333
   * recompilations a second, 130 of reloaded classes and 203 of loaded copies' code discarded
   * without an event while the sweeper reclaimed 300 to 850 methods a second in a cache filling
   * past 50%. Before JDK 14 the discarded code is all there is to tell a storm by (the lab's
   * deopt-storm loads 17 to 20 classes a second), so it is judged as it is.
   */
  private static boolean classLoaderChurnDiscards(
      RuleContext context, Duration window, double deoptimizations) {
    return !Double.isNaN(deoptimizations)
        && ChurnSignature.classesReloaded(context.history(), window);
  }
}
