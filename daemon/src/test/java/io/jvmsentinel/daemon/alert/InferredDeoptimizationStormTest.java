package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * DeoptimizationStorm on a JVM without {@code jdk.Deoptimization} (JDK 8 to 13): judged from the
 * code it throws away, methods of the same loaded class compiled again, on synthetic timelines
 * shaped like the lab's scenarios measured on JDK 11 (JFR recordings of the lab, 2026-11-27).
 */
class InferredDeoptimizationStormTest {
  private static final String CODE_CACHE = "CodeCache";
  // The default 240 MB: its sweeper flushes no code in use below 80% (ChurnSignature.SMALL_MB).
  private static final double DEFAULT_CACHE = 240.0 * 1024 * 1024;
  private static final String AREA = "io.jvmsentinel.lab.DeoptTemplate.area";
  private final DeoptimizationStormRule rule = new DeoptimizationStormRule();

  /**
   * Two minutes of a JDK 11 target at these rates a second: recompilations, of which discarded code
   * ({@code discarded} of elapsed seconds, cumulative), classes loaded and unloaded, the cache at
   * {@code occupancy} with the sweeper reclaiming {@code swept}.
   */
  private static SignalHistory jdk11(
      double recompiles,
      IntToDoubleFunction discarded,
      double loaded,
      double occupancy,
      double swept) {
    return jdk11(
        120,
        recompiles,
        discarded,
        InferredDeoptimizationStormTest::labMethods,
        loaded,
        occupancy,
        swept);
  }

  private static SignalHistory jdk11(
      int seconds,
      double recompiles,
      IntToDoubleFunction discarded,
      IntFunction<IntervalCounts.Count[]> methods,
      double loaded,
      double occupancy,
      double swept) {
    return Samples.history(
        seconds,
        (s, t) ->
            s.recompilations(recompiles * t)
                .compilations((recompiles + 2) * t)
                .classes(5_000 + loaded * t, loaded * t)
                .sweeper(swept * t)
                .heap(CODE_CACHE, occupancy * DEFAULT_CACHE, DEFAULT_CACHE)
                .discarded(discarded.applyAsDouble(t), methods.apply(t)));
  }

  /** Each 2 s tick's discarded code of the lab's storm at 16/s: two methods. */
  private static IntervalCounts.Count[] labMethods(int t) {
    return new IntervalCounts.Count[] {
      new IntervalCounts.Count(AREA, 20, List.of("tier 4")),
      new IntervalCounts.Count("io.jvmsentinel.lab.DeoptTemplate.sign", 12, List.of("tier 3"))
    };
  }

  /** Each tick's discarded code of a wave: 32 methods no tick had before, once each. */
  private static IntervalCounts.Count[] waveMethods(int t) {
    return java.util.stream.IntStream.range(0, 32)
        .mapToObj(
            i ->
                new IntervalCounts.Count(
                    "shop.Stage" + (t * 32 + i) + ".apply", 1, List.of("tier 4")))
        .toArray(IntervalCounts.Count[]::new);
  }

  /**
   * The lab's deopt-storm on JDK 11: a fresh copy of the code 4 times a second (20 classes loaded
   * and unloaded), 76 recompilations a second, 16 of them of code the same class had compiled
   * before; the cache roomy, the sweeper reclaiming the dropped copies.
   */
  private static SignalHistory deoptStorm() {
    return jdk11(76, t -> 16.0 * t, 20, 0.2, 30);
  }

  @Test
  void discardedCodeRecompiledAtASustainedRateIsADeoptimisationStormOnAJdk11Target() {
    assertThat(rule.evaluate(Samples.context(rule, deoptStorm(), Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary())
                  .isEqualTo(
                      "Deoptimisation storm on orders: compiled code thrown away and recompiled"
                          + " 16.0/s, most often "
                          + AREA);
              assertThat(f.explanation())
                  .contains("no jdk.Deoptimization event")
                  .contains("inferred from the recompilations");
              assertThat(f.evidence().keySet()).startsWith("mostRecompiledMethods");
              assertThat(f.evidence()).containsEntry("discardedCodeRecompiledPerSecond", 16.0);
              assertThat((List<?>) f.evidence().get("mostRecompiledMethods"))
                  .first()
                  .isEqualTo(Map.of("method", AREA, "count", 260L, "tiers", List.of("tier 4")));
            });
  }

  @Test
  void whileWarmUpSettlesTheStormIsJudgedAndTheWaveStaysSilent() {
    // Past warm-up's minimum with the compile rate still falling (a JVM stalled before its storm):
    // the recurrence the inferred form asks for already tells the storm from a settling JIT.
    SignalHistory wave =
        jdk11(120, 76, t -> 16.0 * t, InferredDeoptimizationStormTest::waveMethods, 20, 0.2, 30);

    assertThat(rule.evaluate(Samples.settling(rule, deoptStorm(), Set.of()))).hasSize(1);
    assertThat(rule.evaluate(Samples.settling(rule, wave, Set.of()))).isEmpty();
    assertThat(rule.evaluate(Samples.warmingUp(rule, deoptStorm()))).isEmpty();
  }

  @Test
  void manyMethodsRecompiledOnceEachAreAWaveNotAStorm() {
    // As sustained as the storm, but 32 different methods a tick, each recompiled once: code
    // invalidated by a change and compiled again, not the same code thrown away again and again.
    SignalHistory wave =
        jdk11(120, 76, t -> 16.0 * t, InferredDeoptimizationStormTest::waveMethods, 20, 0.2, 30);

    assertThat(rule.evaluate(Samples.context(rule, wave, Set.of()))).isEmpty();
  }

  @Test
  void theSameManyMethodsRecompiledAllThroughTheWindowAreAStormToo() {
    // spread-deopt-storm: the storm's code in 32 differently named copies, so its 16/s are spread
    // over 32 methods (the ten most recompiled carry under a third); the per-tick tables name 16
    // of them, every method every other tick.
    SignalHistory spread =
        jdk11(
            120,
            76,
            t -> 16.0 * t,
            t ->
                java.util.stream.IntStream.range(0, 16)
                    .mapToObj(
                        i ->
                            new IntervalCounts.Count(
                                "io.jvmsentinel.lab.DeoptSpread" + (t / 2 % 2 * 16 + i) + ".area",
                                2,
                                List.of("tier 4")))
                    .toArray(IntervalCounts.Count[]::new),
            20,
            0.2,
            30);

    assertThat(rule.evaluate(Samples.context(rule, spread, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).contains("16.0/s, most often io.jvmsentinel.lab.DeoptSpread");
              assertThat(f.evidence()).containsEntry("shareOfMethodsRecompiledThroughout", 1.0);
              assertThat((List<?>) f.evidence().get("mostRecompiledMethods")).hasSize(10);
            });
  }

  @Test
  void newCodePathsOneAfterAnotherRecompileOtherMethodsEachTimeAndAreNoStorm() {
    // Sustained, and concentrated within each 4 s: five methods recompiled at 16/s, but five
    // others in every sub-window (features switched on one after another), none throughout.
    SignalHistory oneAfterAnother =
        jdk11(
            120,
            76,
            t -> 16.0 * t,
            t ->
                java.util.stream.IntStream.range(0, 5)
                    .mapToObj(
                        i ->
                            new IntervalCounts.Count(
                                "shop.Feature" + t / 4 + ".step" + i, 6, List.of("tier 4")))
                    .toArray(IntervalCounts.Count[]::new),
            20,
            0.2,
            30);

    assertThat(rule.evaluate(Samples.context(rule, oneAfterAnother, Set.of()))).isEmpty();
  }

  @Test
  void classLoaderChurnRecompilesOnlyReloadedCopiesAndIsNoDeoptimisationStorm() {
    // classloader-churn on JDK 11: 180 recompilations a second, none of the same class.
    SignalHistory churn = jdk11(180, t -> 0, 10, 0.2, 36);

    assertThat(rule.evaluate(Samples.context(rule, churn, Set.of()))).isEmpty();
  }

  @Test
  void aNewMessageTypesBurstAndItsTailAreNoStorm() {
    // new-message-type on JDK 11: ~340 of the stages recompiled within 8 s of the new type, then
    // a tail of at most 4.5/s; no classes loaded. Judged at every tick from the burst on.
    IntToDoubleFunction recompiled =
        t -> t < 100 ? 0 : t < 108 ? 42.0 * (t - 100) : 336 + 4.5 * (t - 108);
    for (int now = 100; now <= 140; now += 2) {
      SignalHistory newType =
          jdk11(now, 0, recompiled, InferredDeoptimizationStormTest::labMethods, 0, 0.1, 0);

      assertThat(rule.evaluate(Samples.context(rule, newType, Set.of())))
          .as("at %d s", now)
          .isEmpty();
    }
  }

  @Test
  void aCodeCacheNearItsMaximumDiscardsTheCodeItselfWhichIsCodeCacheChurn() {
    SignalHistory nearFull = jdk11(76, t -> 16.0 * t, 20, 0.85, 30);

    assertThat(rule.evaluate(Samples.context(rule, nearFull, Set.of()))).isEmpty();
  }

  @Test
  void aSweeperReclaimingInARoomyCacheIsTheStormsOwnDiscardedCode() {
    // A storm on classes that stay loaded: nothing reloaded, and the sweeper reclaims the code made
    // not entrant. In a cache under 80% it flushes no hot code (JDK 8 to 17 flush cold code as the
    // cache fills), so that is the deoptimisation's leftovers, not the cache discarding code.
    // spread-deopt-storm at 8 rounds a second on JDK 11 resolved while storming when this counted.
    SignalHistory sweeping = jdk11(20, t -> 16.0 * t, 0, 0.4, 30);

    assertThat(rule.evaluate(Samples.context(rule, sweeping, Set.of()))).hasSize(1);
  }

  /** JDK 17: the same recompilations of discarded code, and {@code deopts} a second. */
  private static SignalHistory jdk17(double deopts, IntFunction<IntervalCounts.Count[]> methods) {
    return Samples.history(
        120,
        (s, t) ->
            s.recompilations(76.0 * t)
                .compilations(78.0 * t)
                .heap(CODE_CACHE, 0.2 * DEFAULT_CACHE, DEFAULT_CACHE)
                .discarded(16.0 * t, methods.apply(t))
                .deopts(deopts * t, deopts * t));
  }

  @Test
  void codeThrownAwayWithoutDeoptimisationEventsIsAStormOnAJdk17TargetToo() {
    // callsite-storm: a call site retargeted 4 times a second invalidates the methods that inline
    // it through their dependency; JDK 17 reports no jdk.Deoptimization for that.
    assertThat(
            rule.evaluate(
                Samples.context(
                    rule, jdk17(0.1, InferredDeoptimizationStormTest::labMethods), Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).contains("compiled code thrown away and recompiled 16.0/s");
              assertThat(f.explanation())
                  .contains("JFR reports few deoptimisations")
                  .contains("call sites retargeted")
                  .doesNotContain("no jdk.Deoptimization event (it arrived in JDK 14)");
              assertThat(f.evidence()).containsEntry("deoptimizationsPerSecond", 0.1);
            });
  }

  @Test
  void aStormOfDeoptimisationEventsIsReportedWithTheirReasons() {
    assertThat(
            rule.evaluate(
                Samples.context(
                    rule, jdk17(36, InferredDeoptimizationStormTest::labMethods), Set.of())))
        .singleElement()
        .satisfies(f -> assertThat(f.evidence()).containsKey("mostDeoptimizedMethods"));
  }

  @Test
  void aJdk17WaveOfDiscardedCodeIsNoStormEither() {
    SignalHistory wave = jdk17(0, InferredDeoptimizationStormTest::waveMethods);

    assertThat(rule.evaluate(Samples.context(rule, wave, Set.of()))).isEmpty();
  }

  /**
   * The lab's churn-from-boot in a 48 MB cache on JDK 17: 5 fresh copies a second, 333
   * recompilations a second, 203 of them of code of loaded copies discarded without a
   * deoptimisation event, the sweeper reclaiming 400 a second at 55%: the discarded code is the
   * class loader churn's (ClassLoaderChurn pages it), not a storm. {@code deopts}: events a second,
   * NaN before JDK 14.
   */
  private static SignalHistory reloadingCopies(double deopts) {
    return Samples.history(
        120,
        (s, t) -> {
          s.recompilations(333.0 * t)
              .compilations(350.0 * t)
              .classes(5_000 + 5.0 * t, 0)
              .sweeper(400.0 * t)
              .heap(CODE_CACHE, 0.55 * 48 * 1024 * 1024, 48 * 1024 * 1024)
              .discarded(203.0 * t, labMethods(t));
          if (!Double.isNaN(deopts)) {
            s.deopts(deopts * t, deopts * t);
          }
        });
  }

  @Test
  void discardedCodeBesideClassesLoadedAnewIsClassLoaderChurnsOnAJdk17Target() {
    assertThat(rule.evaluate(Samples.context(rule, reloadingCopies(0), Set.of()))).isEmpty();
  }

  @Test
  void beforeJdk14TheDiscardedCodeIsJudgedEvenWhileClassesAreLoadedAnew() {
    // No event to tell a storm's discarding by: the lab's deopt-storm itself loads 17 to 20
    // classes a second.
    assertThat(rule.evaluate(Samples.context(rule, reloadingCopies(Double.NaN), Set.of())))
        .hasSize(1);
  }

  @Test
  void aJdk17StormWithoutEventsAndWithoutReloadedClassesStillPages() {
    // callsite-storm: every recompilation is of discarded code, no class loaded.
    SignalHistory callSites =
        Samples.history(
            120,
            (s, t) ->
                s.recompilations(40.0 * t)
                    .compilations(45.0 * t)
                    .classes(5_000, 0)
                    .sweeper(100.0 * t)
                    .heap(CODE_CACHE, 0.03 * DEFAULT_CACHE, DEFAULT_CACHE)
                    .discarded(40.0 * t, labMethods(t))
                    .deopts(0, 0));

    assertThat(rule.evaluate(Samples.context(rule, callSites, Set.of()))).hasSize(1);
  }

  @Test
  void aJmxOnlyTargetIsNotJudged() {
    SignalHistory jmxOnly =
        Samples.history(120, (s, t) -> s.jmxOnly().discarded(Double.NaN).recompilations(0));

    assertThat(rule.evaluate(Samples.context(rule, jmxOnly, Set.of()))).isEmpty();
  }

  @Test
  void aFiringStormResolvesOnceTheLatestSubWindowFallsBelowHalfTheRate() {
    // The storm stopped at 114 s, or went on at half its minimum rate (8/s) from then.
    SignalHistory stopped = jdk11(76, t -> 16.0 * Math.min(t, 114), 20, 0.2, 30);
    SignalHistory halfRate =
        jdk11(76, t -> 16.0 * Math.min(t, 114) + 4.0 * Math.max(0, t - 114), 20, 0.2, 30);

    assertThat(rule.evaluate(Samples.context(rule, stopped, Set.of("")))).isEmpty();
    assertThat(rule.evaluate(Samples.context(rule, halfRate, Set.of("")))).hasSize(1);
  }

  @Test
  void nothingIsJudgedDuringWarmUp() {
    assertThat(rule.evaluate(Samples.warmingUp(rule, deoptStorm()))).isEmpty();
  }
}
