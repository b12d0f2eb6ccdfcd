package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.GcOverheadRule;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GcOverhead on synthetic windows: the share of wall time in pauses over the last minute. */
class GcOverheadRuleTest {
  private final GcOverheadRule rule = new GcOverheadRule();

  @Test
  void pausesTakingAThirdOfTheTimeAreOverhead() {
    SignalHistory history =
        Samples.history(
            120,
            (s, t) ->
                s.gcPause(0.3 * t)
                    .gcPauses(
                        Map.of(
                            "G1 Old Generation / Allocation Failure",
                            new SignalSample.GcPauses(850, 12))));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).startsWith("GC overhead on orders: 30");
              assertThat(f.evidence()).containsEntry("pauseShareOfWallTime", 0.3);
              assertThat(f.evidence())
                  .containsEntry(
                      "pausesByCollectorAndCause",
                      Map.of("G1 Old Generation / Allocation Failure", "850 ms max, 12 pauses"));
            });
  }

  @Test
  void ordinaryPausesAreNotOverhead() {
    SignalHistory history = Samples.history(120, (s, t) -> s.gcPause(0.05 * t));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void onlyTheLastWindowCounts() {
    // Half the time paused for the first minute, nothing since: the last 60 s are clean.
    SignalHistory history = Samples.history(130, (s, t) -> s.gcPause(0.5 * Math.min(t, 60)));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void aFiringAlertResolvesOnlyAtHalfTheShare() {
    SignalHistory hovering = Samples.history(120, (s, t) -> s.gcPause(0.15 * t));
    SignalHistory calm = Samples.history(120, (s, t) -> s.gcPause(0.08 * t));

    assertThat(rule.evaluate(context(hovering, Set.of("")))).hasSize(1);
    assertThat(rule.evaluate(context(hovering, Set.of()))).isEmpty();
    assertThat(rule.evaluate(context(calm, Set.of("")))).isEmpty();
  }

  @Test
  void aDownTargetHasNoOverhead() {
    SignalHistory history = Samples.history(120, (s, t) -> s.gcPause(0.3 * t).down(5));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  private RuleContext context(SignalHistory history, Set<String> firing) {
    return Samples.context(rule, history, firing);
  }
}
