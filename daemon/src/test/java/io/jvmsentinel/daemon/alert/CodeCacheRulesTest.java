package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.WatchedTarget;
import io.jvmsentinel.daemon.alert.rules.CodeCacheChurnRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheFullRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheNearFullRule;
import io.jvmsentinel.daemon.alert.rules.CompilerCpuHighRule;
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
  void churnNeedsDeoptimisationRecompilationAndAFullOrFlushingCacheAfterWarmUp() {
    AlertRule rule = new CodeCacheChurnRule();
    SignalHistory churn =
        Samples.history(
            180,
            (s, t) ->
                s.deopts(2.0 * t, 1.0 * t)
                    .compilations(5.0 * t)
                    .codeCacheGcs(t / 30)
                    .heap(SEGMENT, 70, 100));
    SignalHistory busyButRoomy =
        Samples.history(
            180, (s, t) -> s.deopts(2.0 * t, 1.0 * t).compilations(5.0 * t).heap(SEGMENT, 30, 100));

    assertThat(rule.evaluate(context(rule, churn, Set.of(), false)))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.summary())
                    .startsWith(
                        "Codecache churn on search: 1.0 methods/s made not entrant, 5.0 compilations/s"));
    assertThat(rule.evaluate(context(rule, churn, Set.of(), true))).as("warming up").isEmpty();
    // The lab's churn on JDK 17: the sweeper flushes, the JIT recompiles, no Deoptimization events.
    SignalHistory flushingOnly =
        Samples.history(
            180, (s, t) -> s.compilations(900.0 * t).codeCacheGcs(t / 10).heap(SEGMENT, 55, 100));
    assertThat(rule.evaluate(context(rule, flushingOnly, Set.of(), false))).hasSize(1);
    assertThat(rule.evaluate(context(rule, busyButRoomy, Set.of(), false))).isEmpty();
  }

  @Test
  void compilerCpuHighIsAveragedOverItsWindowAndSilentDuringWarmUp() {
    AlertRule rule = new CompilerCpuHighRule();
    SignalHistory hot = Samples.history(180, (s, t) -> s.compilerShare(0.4));
    SignalHistory spiky = Samples.history(180, (s, t) -> s.compilerShare(t >= 170 ? 0.9 : 0.05));

    assertThat(rule.evaluate(context(rule, hot, Set.of(), false))).hasSize(1);
    assertThat(rule.evaluate(context(rule, hot, Set.of(), true))).isEmpty();
    assertThat(rule.evaluate(context(rule, spiky, Set.of(), false))).isEmpty();
  }

  private RuleContext context(
      AlertRule rule, SignalHistory history, Set<String> firing, boolean warming) {
    return new RuleContext(
        "search",
        history,
        RuleSettings.DEFAULTS.thresholds(rule, "search"),
        firing,
        warming,
        history.latest().orElseThrow().at(),
        target);
  }
}
