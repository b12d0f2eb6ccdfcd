package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.CodeCacheChurnRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheFullRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheNearFullRule;
import io.jvmsentinel.daemon.alert.rules.CompilerCpuHighRule;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The code cache and JIT rules on synthetic signal windows. */
class CodeCacheRulesTest {
  private static final String SEGMENT = "CodeHeap 'profiled nmethods'";
  @TempDir Path tmp;
  private WatchedTarget target;

  @BeforeEach
  void target() {
    target = UnstartedTarget.create("search", new SimpleMeterRegistry(), tmp);
  }

  @AfterEach
  void close() {
    target.close();
  }

  @Test
  void nearFullFiresPerSegmentAndResolvesBelowItsLowerThreshold() {
    AlertRule rule = new CodeCacheNearFullRule();
    SignalHistory at92 = Samples.history(10, (s, t) -> s.heap(SEGMENT, 92, 100));
    SignalHistory at87 = Samples.history(10, (s, t) -> s.heap(SEGMENT, 87, 100));

    assertThat(rule.evaluate(context(rule, at92, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.key()).isEqualTo(SEGMENT);
              assertThat(f.summary()).isEqualTo("Code cache " + SEGMENT + " on search is 92% full");
            });
    assertThat(rule.evaluate(context(rule, at87, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, at87, Set.of(SEGMENT), false))).hasSize(1);
  }

  @Test
  void fullFiresWhenCompilationIsDisabledOrAFullEventArrives() {
    AlertRule rule = new CodeCacheFullRule();
    SignalHistory disabled = Samples.history(10, (s, t) -> s.compilationEnabled(t >= 6 ? 0 : 1));
    SignalHistory fill = Samples.history(10, (s, t) -> s.fullEvents(t >= 8 ? 1 : 0));
    SignalHistory fine = Samples.history(10, (s, t) -> s.fullEvents(3));

    assertThat(rule.evaluate(context(rule, disabled, Set.of(), false)))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.summary())
                    .isEqualTo("Code cache full on search: JIT compilation disabled"));
    assertThat(rule.evaluate(context(rule, fill, Set.of(), false))).hasSize(1);
    assertThat(rule.severity()).isEqualTo(Severity.CRITICAL);
    assertThat(rule.evaluate(context(rule, fine, Set.of(), false)))
        .as("fills before the daemon connected are history, not an alert")
        .isEmpty();
    SignalHistory reconnected =
        Samples.history(10, (s, t) -> s.fullEvents(t == 4 ? Double.NaN : 3));
    assertThat(rule.evaluate(context(rule, reconnected, Set.of(), false)))
        .as("an old fill seen again after a reconnect is not a new fill")
        .isEmpty();
  }

  @Test
  void churnIsTheSameMethodsRecompiledWhileTheCacheIsFlushedOrFull() {
    AlertRule rule = new CodeCacheChurnRule();
    // The lab's churn on JDK 17: the sweeper flushes, the JIT compiles the same methods again.
    SignalHistory churn =
        Samples.history(
            180,
            (s, t) ->
                s.compilations(6.0 * t)
                    .recompilations(2.0 * t)
                    .sweeper(10.0 * t)
                    .heap(SEGMENT, 55, 100));

    assertThat(rule.evaluate(context(rule, churn, Set.of(), false)))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.summary())
                    .isEqualTo(
                        "Codecache churn on search: 2.0 methods/s compiled again, code cache 55%"
                            + " full and being flushed"));
    assertThat(rule.evaluate(context(rule, churn, Set.of(), true)))
        .as("during warm-up a half-full cache is ambiguous")
        .isEmpty();
  }

  @Test
  void theTailOfAnEpisodeThatHasEndedIsNoNewChurn() {
    AlertRule rule = new CodeCacheChurnRule();
    // codebase-churn-ends-jdk17: churn in a cache at 90% until 55 s, 15 s stopped (the alert
    // resolved), then the code base unloaded: the sweeper reclaiming it while a few methods are
    // compiled again for 30 s. The minute still holds two sub-windows of the churn.
    SignalHistory tail = churnThen(55, 70, 5);
    // Churn again after a 10 s pause, sustained for 40 s since: a new episode.
    SignalHistory again = churnThen(50, 60, 150);

    assertThat(rule.evaluate(context(rule, tail, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, again, Set.of(), false))).hasSize(1);
  }

  /**
   * 100 s of a cache at 90% with the sweeper flushing: 150 recompilations a second until {@code
   * churnEnds}, none until {@code quietEnds}, {@code after} a second from then on.
   */
  private static SignalHistory churnThen(int churnEnds, int quietEnds, double after) {
    double[] recompiled = new double[101];
    for (int t = 1; t <= 100; t++) {
      recompiled[t] = recompiled[t - 1] + (t <= churnEnds ? 150 : t <= quietEnds ? 0 : after);
    }
    return Samples.history(
        100,
        (s, t) ->
            s.compilations(recompiled[t] + 2.0 * t)
                .recompilations(recompiled[t])
                .sweeper(100.0 * t)
                .heap(SEGMENT, 90, 100));
  }

  @Test
  void churnFromBootFiresDuringWarmUpWhenTheCacheIsFullAndFlushed() {
    AlertRule rule = new CodeCacheChurnRule();
    SignalHistory fromBoot =
        Samples.history(
            60,
            (s, t) ->
                s.uptime(t)
                    .compilations(30.0 * t)
                    .recompilations(5.0 * t)
                    .codeCacheGcs(t / 4)
                    .heap(SEGMENT, 92, 100));

    assertThat(rule.evaluate(context(rule, fromBoot, Set.of(), true))).hasSize(1);
  }

  @Test
  void sweepingInARoomyCacheOfDefaultSizeIsNoPressureButInASmallOneItIs() {
    AlertRule rule = new CodeCacheChurnRule();
    double mb = 1024 * 1024;
    // plugin-reload-3-jdk17: 60 recompilations/s for 80 s after a reload, the sweeper reclaiming
    // the replaced tier 3 code, no class unloaded yet, 21% of 240 MB: no code in use is flushed.
    SignalHistory reloaded = recompilingWhileSwept(0.21 * 240 * mb, 240 * mb);
    // The same in the lab's 4 MB cache at 60%: its sweeper flushes code in use at any occupancy.
    SignalHistory small = recompilingWhileSwept(0.6 * 4 * mb, 4 * mb);

    assertThat(rule.evaluate(context(rule, reloaded, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, small, Set.of(), false))).hasSize(1);
  }

  /** 60 of 70 compilations/s recompilations, the sweeper reclaiming, the cache at used of max. */
  private static SignalHistory recompilingWhileSwept(double used, double max) {
    return Samples.history(
        180,
        (s, t) ->
            s.compilations(70.0 * t)
                .recompilations(60.0 * t)
                .sweeper(50.0 * t)
                .heap(SEGMENT, used, max));
  }

  @Test
  void firstTimeCompilationOfNewCodeIsNeverChurn() {
    AlertRule rule = new CodeCacheChurnRule();
    // A feature switched on after warm-up: 55 compilations/s of new methods; routine sweeping.
    SignalHistory newCode =
        Samples.history(
            180, (s, t) -> s.compilations(55.0 * t).sweeper(3.0 * t).heap(SEGMENT, 22, 100));
    // A short burst of recompilations (a deoptimisation wave) is not sustained.
    SignalHistory burst =
        Samples.history(
            180,
            (s, t) ->
                s.compilations(20.0 * t)
                    .recompilations(t < 160 ? 0 : 10.0 * (t - 160))
                    .sweeper(3.0 * t)
                    .heap(SEGMENT, 60, 100));
    // Recompiling with a roomy cache that is not being flushed: deoptimisation, not churn.
    SignalHistory roomy =
        Samples.history(
            180,
            (s, t) -> s.deopts(2.0 * t, 1.0 * t).recompilations(2.0 * t).heap(SEGMENT, 30, 100));

    assertThat(rule.evaluate(context(rule, newCode, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, burst, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, roomy, Set.of(), false))).isEmpty();
  }

  @Test
  void compilerCpuHighIsNotPagedAgainByNewCodeCompiledAfterItsEpisodeResolved() {
    // The compilers at 60% of the process CPU (0.6 cores) for 10 minutes, quiet from 600 s (the
    // page resolved at about 625 s), then a new feature compiled from 660 s at 25% (0.2 cores):
    // over the resolve thresholds in the latest minute, and four of the 5-minute window's
    // sub-windows still the episode's. Paged again at 720 s without the fix.
    AlertRule rule = new CompilerCpuHighRule();
    SignalHistory tail =
        Samples.history(
            720,
            (s, t) ->
                s.compilerShare(t < 600 ? 0.6 : t < 660 ? 0.02 : 0.25)
                    .compilerCpuSeconds(
                        0.6 * Math.min(t, 600)
                            + 0.02 * Math.max(0, Math.min(t, 660) - 600)
                            + 0.2 * Math.max(0, t - 660)));
    SignalHistory episode =
        Samples.history(720, (s, t) -> s.compilerShare(0.6).compilerCpuSeconds(0.6 * t));

    assertThat(rule.evaluate(Samples.context(rule, tail, Set.of()))).isEmpty();
    assertThat(rule.evaluate(Samples.context(rule, episode, Set.of()))).hasSize(1);
  }

  @Test
  void compilerCpuHighMustOutlastANewFeaturesCompilationOrCarryTheChurnSignature() {
    AlertRule rule = new CompilerCpuHighRule();
    SignalHistory hot = Samples.history(400, (s, t) -> s.compilerShare(0.4));
    SignalHistory spiky = Samples.history(400, (s, t) -> s.compilerShare(t >= 390 ? 0.9 : 0.05));
    // A feature switched on: the compilers are busy for two minutes with new code.
    SignalHistory feature =
        Samples.history(
            400,
            (s, t) -> s.compilerShare(t >= 260 ? 0.6 : 0.05).compilations(t < 260 ? t : 40.0 * t));
    SignalHistory churnFromBoot =
        Samples.history(
            60,
            (s, t) ->
                s.compilerShare(0.45)
                    .recompilations(5.0 * t)
                    .codeCacheGcs(t / 4)
                    .heap(SEGMENT, 92, 100));

    // A mostly idle JVM: the compilers take 60% of its CPU, which is 0.05 of a core.
    SignalHistory idle =
        Samples.history(400, (s, t) -> s.compilerShare(0.6).compilerCpuSeconds(0.05 * t));
    SignalHistory hotAndBusy =
        Samples.history(400, (s, t) -> s.compilerShare(0.4).compilerCpuSeconds(0.8 * t));

    assertThat(rule.evaluate(context(rule, hot, Set.of(), false))).hasSize(1);
    assertThat(rule.evaluate(context(rule, hotAndBusy, Set.of(), false))).hasSize(1);
    assertThat(rule.evaluate(context(rule, idle, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, hot, Set.of(), true))).isEmpty();
    assertThat(rule.evaluate(context(rule, spiky, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, feature, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(rule, churnFromBoot, Set.of(), true))).hasSize(1);
  }

  private RuleContext context(
      AlertRule rule, SignalHistory history, Set<String> firing, boolean warming) {
    return new RuleContext(
        "search",
        history,
        RuleSettings.DEFAULTS.thresholds(rule, "search"),
        firing,
        warming ? WarmUp.Phase.STARTING : WarmUp.Phase.OVER,
        history.latest().orElseThrow().at());
  }
}
