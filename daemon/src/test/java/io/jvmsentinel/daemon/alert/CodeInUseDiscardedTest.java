package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.rules.CodeCacheChurnRule;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A code cache that is not full but keeps throwing away code still in use: incident 4 on a JVM that
 * holds its cache under the maximum by flushing (JDK 25's code cache GCs at 32% to 48% of 40 MB,
 * the lab's codebase-churn, 2026-11-27). CodeCacheChurn's, not a deoptimisation storm's, and told
 * apart from a storm, a wave after a change and class loader churn.
 */
class CodeInUseDiscardedTest {
  private static final String CODE_CACHE = "CodeCache";
  private static final double CACHE = 40.0 * 1024 * 1024;
  private final AlertRule churn = new CodeCacheChurnRule();
  private final AlertRule storm = new DeoptimizationStormRule();

  /**
   * Two minutes at 200 compilations a second, {@code discarded} of them (while {@code discarding}
   * says so) of code the cache flushed, named by {@code methods}; a code cache GC every 14 s, the
   * cache between 32% and 44%; {@code deopts} events a second (NaN: JDK 11, none known); {@code
   * loaded} classes a second, each compiling 10 methods again.
   */
  private static SignalHistory target(
      double discarded,
      IntPredicate discarding,
      IntFunction<IntervalCounts.Count[]> methods,
      double deopts,
      double loaded) {
    return Samples.history(
        120,
        (s, t) -> {
          double flushed = discarded * IntStream.range(0, t).filter(discarding).count();
          s.compilations(200.0 * t)
              .recompilations(flushed + (2 + 10 * loaded) * t)
              .classes(5_000 + loaded * t, 0)
              .codeCacheGcs(t / 14)
              .heap(CODE_CACHE, (0.32 + 0.01 * (t % 14)) * CACHE, CACHE)
              .discarded(
                  flushed, discarding.test(t) ? methods.apply(t) : new IntervalCounts.Count[0]);
          if (!Double.isNaN(deopts)) {
            s.deopts(deopts * t, deopts * t);
          }
        });
  }

  /** Each 2 s tick's flushed code of a code base in rotation: 40 methods no tick had before. */
  private static IntervalCounts.Count[] rotation(int t) {
    return IntStream.range(0, 40)
        .mapToObj(i -> new IntervalCounts.Count("shop.Page" + (t * 40 + i) + ".render", 9, tier4()))
        .toArray(IntervalCounts.Count[]::new);
  }

  /** Each tick's discarded code of a storm: the same two methods. */
  private static IntervalCounts.Count[] sameFew(int t) {
    return new IntervalCounts.Count[] {
      new IntervalCounts.Count("shop.Cart.total", 200, tier4()),
      new IntervalCounts.Count("shop.Cart.tax", 160, tier4())
    };
  }

  private static List<String> tier4() {
    return List.of("tier 4");
  }

  private static boolean always(int t) {
    return true;
  }

  private List<Finding> churnOf(SignalHistory history) {
    return churn.evaluate(Samples.context(churn, history, Set.of()));
  }

  @Test
  void aCacheUnderItsMaximumFlushingCodeInUseIsCodecacheChurn() {
    SignalHistory codeBase =
        target(180, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::rotation, 0, 0);

    assertThat(churnOf(codeBase))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).endsWith("code cache 44% full, flushing code still in use");
              assertThat(f.explanation())
                  .contains("The cache is not full, but 180/s of that is code the JVM flushed")
                  .contains("the code in use does not fit");
              assertThat(f.evidence())
                  .containsEntry("cacheDiscardsCodeInUse", true)
                  .containsEntry("flushedCodeRecompiledPerSecond", 180.0);
            });
    assertThat(storm.evaluate(Samples.context(storm, codeBase, Set.of()))).isEmpty();
  }

  @Test
  void onAJdk11TargetWithoutDeoptimisationEventsToo() {
    SignalHistory codeBase =
        target(
            180, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::rotation, Double.NaN, 0);

    assertThat(churnOf(codeBase)).hasSize(1);
    assertThat(storm.evaluate(Samples.context(storm, codeBase, Set.of()))).isEmpty();
  }

  @Test
  void theSameFewMethodsThrownAwayAgainAndAgainAreAStormNotChurn() {
    SignalHistory callSites =
        target(180, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::sameFew, 0, 0);

    assertThat(churnOf(callSites)).isEmpty();
    assertThat(storm.evaluate(Samples.context(storm, callSites, Set.of()))).hasSize(1);
  }

  @Test
  void codeDiscardedByDeoptimisationsTheJvmReportsIsNotTheCaches() {
    SignalHistory deoptimised =
        target(180, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::rotation, 400, 0);

    assertThat(churnOf(deoptimised)).isEmpty();
  }

  @Test
  void aThirtySecondWaveAfterAChangeIsNotChurn() {
    // A new message type on JDK 11 (no events): many methods compiled again once, for 30 s.
    SignalHistory wave =
        target(180, t -> t >= 86 && t < 116, CodeInUseDiscardedTest::rotation, Double.NaN, 0);

    assertThat(churnOf(wave)).isEmpty();
  }

  @Test
  void classesLoadedAnewExplainTheRecompiledCode() {
    SignalHistory reloading =
        target(180, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::rotation, 0, 5);

    assertThat(churnOf(reloading)).isEmpty();
  }

  @Test
  void aFewMethodsFlushedAndNeededAgainAreHousekeeping() {
    SignalHistory intermittent =
        target(2, CodeInUseDiscardedTest::always, CodeInUseDiscardedTest::rotation, 0, 0);

    assertThat(churnOf(intermittent)).isEmpty();
  }
}
