package io.jvmsentinel.daemon.alert.rules;

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
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Codecache churn (seed incident 4), recognised by its signature rather than by the clock: the JIT
 * compiles again methods it has already compiled at the same tier (their code was made not entrant,
 * flushed or unloaded), while the code cache is under pressure (being flushed, or near its
 * maximum), in most sub-windows of the window. First-time compilation of new code, however heavy (a
 * feature switched on, a new code path), is never churn; routine sweeping alone is not either.
 *
 * <p>During warm-up the rule fires only on the unambiguous form: the cache near its maximum (or
 * filling up) and being flushed while the same methods are recompiled. That is churn from boot, the
 * way the seed incident began after a JDK upgrade.
 *
 * <p>A cache under its near-full mark that keeps throwing away code still in use (the code in use
 * does not fit; {@link ChurnSignature.CacheState#DISCARDING_IN_USE}) is under pressure too: the
 * seed incident's cache was the one the JVM kept flushing, whatever its occupancy.
 *
 * <p>The latest sub-window must show the signature at half the thresholds, to fire (churn that has
 * stopped is not paged) and to stay firing: the alert resolves once recompiling under pressure
 * stops, not once it has drained out of the minute. A fresh page counts only the sub-windows since
 * the signature last failed there (an ended episode's tail is no new churn).
 */
public final class CodeCacheChurnRule implements AlertRule {
  static final String WINDOW = "windowSeconds";
  static final String MIN_RECOMPILE_RATE = "minRecompileRate";
  static final String OCCUPANCY = "occupancy";
  static final String SUSTAINED = "sustainedShare";

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
    return "The JIT keeps recompiling the same methods while the code cache is flushed or full.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(
            WINDOW, 60, "seconds", "Window judged, in 6 sub-windows (see sustainedShare)"),
        new RuleThreshold(
            MIN_RECOMPILE_RATE,
            ChurnSignature.MIN_RECOMPILE_RATE,
            "recompilations/s",
            "Compilations of methods already compiled at the same tier (required: churn is"
                + " recompilation; first-time compilation never counts)"),
        new RuleThreshold(
            OCCUPANCY,
            ChurnSignature.NEAR_MAX,
            "fraction",
            "Code cache occupancy that counts as 'near its maximum' (pressure; and, with flushing,"
                + " the unambiguous form that fires during warm-up)"),
        new RuleThreshold(
            SUSTAINED,
            0.6,
            "fraction",
            "Share of the sub-windows in which recompilation under pressure must hold"));
  }

  @Override
  public boolean needsJfr() {
    return true;
  }

  /** Recompilations (JFR) per sub-window, and an occupancy reading within the window. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(
        Rates.everySubWindow(Signal.RECOMPILATIONS, window),
        Rates.everyWindow(Signal.CODE_HEAPS, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    Duration window = Rates.seconds(context.threshold(WINDOW));
    boolean firing = context.firing("");
    double relax = firing ? 0.5 : 1;
    double minRecompiles = context.threshold(MIN_RECOMPILE_RATE) * relax;
    double nearMax = context.threshold(OCCUPANCY) * relax;
    // Warm-up recompiles too: then only a full cache being flushed is unambiguous.
    boolean strict = context.warmingUp() && !firing;
    ChurnSignature.CacheState cache = ChurnSignature.cacheState(context.history(), window);
    List<List<SignalSample>> slices = SubWindows.of(context.history(), window, SubWindows.PARTS);
    Predicate<List<SignalSample>> churning =
        slice ->
            ChurnSignature.recompilingUnderPressure(slice, strict, minRecompiles, nearMax, cache);
    // Churn has stopped in a sub-window that fails the signature at half the thresholds.
    Predicate<List<SignalSample>> stopped =
        slice ->
            !ChurnSignature.recompilingUnderPressure(
                slice,
                false,
                context.threshold(MIN_RECOMPILE_RATE) / 2,
                context.threshold(OCCUPANCY) / 2,
                cache);
    int held = SubWindows.holding(slices, churning);
    boolean now = !slices.isEmpty() && !stopped.test(slices.get(slices.size() - 1));
    // A fresh page needs the signature sustained since churn last stopped: once an episode has
    // resolved, its older sub-windows still hold, and the tail after it (the lab's code base
    // unloaded at its end: the sweeper reclaiming it, a few methods compiled again for 30 s)
    // re-paged it on them.
    boolean sustained =
        SubWindows.sustainedSince(slices, stopped, churning, context.threshold(SUSTAINED));
    if (!now || !(firing || sustained)) {
      return List.of();
    }
    List<SignalSample> samples = context.history().window(window);
    return List.of(
        finding(
            context,
            window,
            samples,
            held,
            SubWindows.maxOccupancy(samples),
            cache == ChurnSignature.CacheState.DISCARDING_IN_USE));
  }

  private Finding finding(
      RuleContext context,
      Duration window,
      List<SignalSample> samples,
      int held,
      double maxOccupancy,
      boolean discardingInUse) {
    boolean flushing = ChurnSignature.flushing(samples);
    double discarded =
        context.history().rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    double recompiles =
        context.history().rate(window, SignalSample::recompilations, SignalSample::jfr);
    double compiles = context.history().rate(window, SignalSample::compilations, SignalSample::jfr);
    double notEntrant =
        context.history().rate(window, SignalSample::madeNotEntrant, SignalSample::jfr);
    Map<String, Object> evidence = CodeCacheEvidence.base(context);
    evidence.put("recompilationsPerSecond", Rates.rounded(recompiles));
    evidence.put("compilationsPerSecond", Rates.rounded(compiles));
    evidence.put("madeNotEntrantPerSecond", Rates.rounded(notEntrant));
    evidence.put("subWindowsHeld", held + " of " + SubWindows.PARTS);
    evidence.put(
        "compilerCpuShare",
        Rates.rounded(Rates.mean(context, window, SignalSample::compilerCpuShare)));
    evidence.put("maxOccupancy", Rates.rounded(maxOccupancy));
    evidence.put("occupancyFall", Rates.rounded(SubWindows.occupancyFall(samples)));
    evidence.put(
        "sweeperMethodsReclaimedPerSecond",
        Rates.rounded(context.history().rate(window, SignalSample::sweeperReclaimed)));
    evidence.put(
        "codeCacheGcsPerSecond",
        Rates.rounded(context.history().rate(window, SignalSample::codeCacheGcs)));
    evidence.put("warmingUp", context.warmingUp());
    if (!Double.isNaN(discarded)) {
      evidence.put("flushedCodeRecompiledPerSecond", Rates.rounded(discarded));
    }
    evidence.put("cacheDiscardsCodeInUse", discardingInUse);
    double loaded = context.history().rate(window, SignalSample::classesLoaded);
    boolean reloading = ChurnSignature.classesReloaded(context.history(), window);
    evidence.put("classesLoadedPerSecond", Rates.rounded(loaded));
    evidence.put("classesReloaded", reloading);
    evidence.put("mostRecompiledMethods", CodeCacheEvidence.mostRecompiled(samples));
    // A JVM without jdk.Deoptimization (JDK 11) gets no list: an empty one would read as "none".
    if (samples.stream().anyMatch(sample -> !Double.isNaN(sample.deoptimizations()))) {
      evidence.put(
          "mostDeoptimizedMethods",
          WindowedEvidence.describe(
              WindowedEvidence.methods(samples, SignalSample.Details::deoptimizedMethods, 5),
              "reasons"));
    }
    return new Finding(
        "",
        "Codecache churn on "
            + context.target()
            + ": "
            + Rates.format(recompiles)
            + " methods/s compiled again, code cache "
            + (Double.isNaN(maxOccupancy)
                ? "occupancy unknown"
                : Rates.percent(maxOccupancy) + " full")
            + (discardingInUse
                ? ", flushing code still in use"
                : flushing ? " and being flushed" : ""),
        "The JIT keeps compiling again methods it had already compiled ("
            + Rates.format(recompiles)
            + "/s of "
            + Rates.format(compiles)
            + " compilations/s) while the code cache is "
            + (flushing || discardingInUse ? "being flushed" : "near its maximum")
            + ", in "
            + held
            + " of the last "
            + SubWindows.PARTS
            + " sub-windows"
            + (context.warmingUp() ? ", already during warm-up" : "")
            + "."
            + (discardingInUse ? inUse(discarded) : "")
            + (reloading ? reloaded(loaded) : "")
            + " The compiler threads burn CPU and hot code runs slower between"
            + " recompilations. ReservedCodeCacheSize is "
            + CodeCacheEvidence.reserved(context)
            + ".",
        (reloading
                ? "Find what keeps loading classes (see ClassLoaderChurn); meanwhile raise"
                    + " -XX:ReservedCodeCacheSize, which only buys time"
                : "Raise -XX:ReservedCodeCacheSize")
            + " (the incident this rule is modelled on needed 256 MB"
            + " instead of 64/128 MB); check the most recompiled methods for code that keeps"
            + " being thrown away (class unloading, generated classes, deoptimisation loops).",
        EvidenceOrder.causeFirst(
            evidence,
            "mostRecompiledMethods",
            "recompilationsPerSecond",
            "maxOccupancy",
            "occupancyHistory"));
  }

  /** What fills the cache when classes keep being loaded anew. */
  private static String reloaded(double loaded) {
    return " Classes are loaded at "
        + Rates.format(loaded)
        + "/s meanwhile and methods of reloaded classes compiled again: the copies fill the cache"
        + " (ClassLoaderChurn's mechanism), and a larger cache only buys time until the reloading"
        + " stops.";
  }

  /** Why a cache that is not full is too small. */
  private static String inUse(double discarded) {
    return " The cache is not full, but "
        + Rates.format(discarded)
        + "/s of that is code the JVM flushed and then needed again, spread over many methods"
        + " (not the same few, as in a deoptimisation storm), with no class reloading and few"
        + " deoptimisations to explain it: the code in use does not fit, so the JVM keeps it"
        + " under its maximum by flushing the least recently used code (the sweeper until JDK"
        + " 19, code cache GCs from JDK 20), and compiles it again.";
  }
}
