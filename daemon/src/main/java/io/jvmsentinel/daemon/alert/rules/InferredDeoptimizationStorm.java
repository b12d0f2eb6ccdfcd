package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DeoptimizationStorm on a JVM without {@code jdk.Deoptimization} (before JDK 14), judged from the
 * code deoptimisation throws away: methods of a class that is still loaded compiled again at a tier
 * they had been compiled at (JFR {@code jdk.Compilation} with the method's class), sustained, while
 * the code cache does not explain it, and concentrated on a few methods: a storm throws the same
 * code away again and again, while a wave after a change (a new message type failing the type
 * checks of 200 stages) recompiles many methods once each, for 20 to 30 s on a loaded JDK 11 host.
 * Measured on the lab's deopt-storm: 16 such recompilations a second on JDK 11 and on JDK 17 (where
 * 36 deoptimisations a second caused them), all of five methods; none sustained in class loader
 * churn, plugin reloads or codecache churn in a 4 MB cache.
 */
final class InferredDeoptimizationStorm {
  static final String UNKNOWN_DEOPTIMIZATIONS =
      "unknown: this JVM has no jdk.Deoptimization event (JDK 14+); inferred from methods of the"
          + " same loaded class compiled again";

  // The ten methods recompiled most carry at least this share: the same code, again and again.
  static final double CONCENTRATED = 0.5;
  private static final int TOP = 10;

  private InferredDeoptimizationStorm() {}

  /** Judged at the rule's {@code minRecompileRate} over its window. */
  static List<Finding> evaluate(RuleContext context, Duration window) {
    double rate =
        context.history().rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    if (Double.isNaN(rate)
        || ChurnSignature.cacheDiscardsCode(context.history())
        || !DeoptimizationStormRule.storming(
            context,
            window,
            SignalSample::discardedRecompilations,
            DeoptimizationStormRule.RECOMPILE_RATE)) {
      return List.of();
    }
    List<IntervalCounts.Count> top =
        WindowedEvidence.methods(
            context.history().window(window), SignalSample.Details::discardedMethods, TOP);
    double total = context.history().increase(window, SignalSample::discardedRecompilations);
    double share = top.stream().mapToLong(IntervalCounts.Count::count).sum() / total;
    if (!(share >= CONCENTRATED)) {
      return List.of();
    }
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put(DeoptimizationStormRule.INFERRED_RATE, Math.round(rate * 100) / 100.0);
    evidence.put("shareOfTheTenMostRecompiledMethods", Math.round(share * 100) / 100.0);
    evidence.put("deoptimizationsPerSecond", UNKNOWN_DEOPTIMIZATIONS);
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
                + "% of them in the ten methods of the evidence), with a code cache that has room"
                + " and is not flushing them: their compiled code keeps being deoptimised. This JVM has no"
                + " jdk.Deoptimization event (it arrived in JDK 14), so the deoptimisations are"
                + " inferred from the recompilations they cause, without their reasons. Typical"
                + " causes: class loading that breaks inlining assumptions (class hierarchy"
                + " changes), or uncommon traps hit over and over (a type or branch profile that"
                + " keeps flipping).",
            "Look at the most recompiled methods in the evidence and stabilise the types and"
                + " branches they see; -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation on a"
                + " copy of the service gives each deoptimisation's reason.",
            EvidenceOrder.causeFirst(evidence, "mostRecompiledMethods")));
  }
}
