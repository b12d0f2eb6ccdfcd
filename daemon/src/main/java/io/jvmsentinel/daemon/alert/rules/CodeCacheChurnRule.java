package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Codecache churn (seed incident 4): after warm-up, the JIT keeps recompiling while the code cache
 * is being flushed (or, near its maximum, while methods keep being made not entrant). No single
 * event says so; the rule combines the rates, the occupancy and the flushing signals (the sweeper
 * up to JDK 19, "CodeCache GC Threshold" collections from JDK 20).
 */
public final class CodeCacheChurnRule implements AlertRule {
  static final String WINDOW = "windowSeconds";
  static final String MIN_NOT_ENTRANT_RATE = "minMadeNotEntrantRate";
  static final String MIN_COMPILE_RATE = "minCompileRate";
  static final String OCCUPANCY = "occupancy";

  @Override
  public String id() {
    return "CodeCacheChurn";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "The JIT keeps flushing and recompiling code because the code cache is (nearly) full.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(WINDOW, 120, "seconds", "Window the rates are measured over"),
        new RuleThreshold(
            MIN_NOT_ENTRANT_RATE,
            0.5,
            "methods/s",
            "Methods made not entrant, sustained: counts as churn with a near-full cache even"
                + " when no flushing is seen"),
        new RuleThreshold(
            MIN_COMPILE_RATE,
            5,
            "compilations/s",
            "JIT compilations, sustained after warm-up (required: churn is recompilation)"),
        new RuleThreshold(
            OCCUPANCY,
            0.8,
            "fraction",
            "Code cache occupancy that counts as 'near its maximum' when no flushing is seen"));
  }

  @Override
  public Duration clearFor() {
    return Duration.ofMinutes(2);
  }

  @Override
  public boolean needsJfr() {
    return true;
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context) || context.warmingUp()) {
      return List.of();
    }
    SignalSample latest = context.history().latest().orElseThrow();
    Duration window = Rates.seconds(context.threshold(WINDOW));
    double relax = context.firing("") ? 0.5 : 1;
    double notEntrant =
        context.history().rate(window, SignalSample::madeNotEntrant, SignalSample::jfr);
    double compiles = context.history().rate(window, SignalSample::compilations, SignalSample::jfr);
    double reclaimed = context.history().rate(window, SignalSample::sweeperReclaimed);
    double codeCacheGcs = context.history().rate(window, SignalSample::codeCacheGcs);
    double maxOccupancy =
        latest.codeHeaps().stream().mapToDouble(SignalSample.CodeHeap::occupancy).max().orElse(0);
    double oscillation = oscillation(context, window);
    boolean flushing = positive(reclaimed) || positive(codeCacheGcs) || oscillation >= 0.05;
    boolean nearMax = maxOccupancy >= context.threshold(OCCUPANCY) * relax;
    // Measured on the lab's churn: the sweeper and code cache GCs flush code without JFR
    // Deoptimization events (1 in 150 s), so invalidations count as an alternative to flushing,
    // while sustained recompilation is required either way.
    boolean invalidating = notEntrant >= context.threshold(MIN_NOT_ENTRANT_RATE) * relax;
    boolean churning =
        compiles >= context.threshold(MIN_COMPILE_RATE) * relax
            && (flushing || (invalidating && nearMax));
    if (!churning) {
      return List.of();
    }
    Map<String, Object> evidence = CodeCacheEvidence.base(context);
    evidence.put("madeNotEntrantPerSecond", round(notEntrant));
    evidence.put("compilationsPerSecond", round(compiles));
    evidence.put(
        "compilerCpuShare", round(Rates.mean(context, window, SignalSample::compilerCpuShare)));
    evidence.put("maxOccupancy", round(maxOccupancy));
    evidence.put("occupancyFall", round(oscillation));
    evidence.put("sweeperMethodsReclaimedPerSecond", round(reclaimed));
    evidence.put("codeCacheGcsPerSecond", round(codeCacheGcs));
    List<Map<String, Object>> methods = new ArrayList<>();
    for (var method : context.watched().jfr().deoptimizations().topMethods(5)) {
      methods.add(
          Map.of(
              "method",
              method.method(),
              "count",
              method.count(),
              "reasons",
              List.copyOf(method.reasons())));
    }
    evidence.put("mostDeoptimizedMethods", methods);
    return List.of(
        new Finding(
            "",
            "Codecache churn on "
                + context.target()
                + ": "
                + Rates.format(notEntrant)
                + " methods/s made not entrant, "
                + Rates.format(compiles)
                + " compilations/s, code cache "
                + Rates.percent(maxOccupancy)
                + " full",
            "After warm-up the JIT keeps invalidating and recompiling methods while the code"
                + " cache is "
                + (flushing ? "being flushed" : "near its maximum")
                + ". The compiler threads burn CPU and hot code runs slower between"
                + " recompilations. ReservedCodeCacheSize is "
                + CodeCacheEvidence.reserved(context)
                + ".",
            "Raise -XX:ReservedCodeCacheSize (the incident this rule is modelled on needed 256 MB"
                + " instead of 64/128 MB); check the most deoptimised methods for code that keeps"
                + " invalidating its own compiled code.",
            evidence));
  }

  /**
   * The largest fall of any segment's occupancy from an earlier peak within the window: code being
   * flushed. A cache that only fills never falls.
   */
  private static double oscillation(RuleContext context, Duration window) {
    double fall = 0;
    for (List<Double> series : CodeCacheEvidence.occupancyHistory(context, window).values()) {
      double peak = Double.NEGATIVE_INFINITY;
      for (double occupancy : series) {
        peak = Math.max(peak, occupancy);
        fall = Math.max(fall, peak - occupancy);
      }
    }
    return fall;
  }

  private static boolean positive(double value) {
    return !Double.isNaN(value) && value > 0;
  }

  private static Double round(double value) {
    return Double.isNaN(value) ? null : Math.round(value * 1000) / 1000.0;
  }
}
