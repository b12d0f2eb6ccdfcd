package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DeoptimizationStorm's episodes: a storm that ended and resolved is not paged again. */
class DeoptimizationStormRuleTest {
  private final AlertRule rule = new DeoptimizationStormRule();

  @Test
  void aStormThatEndedIsNotPagedAgainOnItsSubWindowsStillInTheWindow() {
    // 30 deoptimisations/s for 100 s, then none. With a 60 s window (10 s sub-windows), the page
    // resolved at about 124 s (the latest sub-window quiet from 110 s, then clearFor 15 s): four
    // of the six sub-windows then still held the storm, and the next tick paged it again.
    SignalHistory ended =
        Samples.history(
            124,
            (s, t) -> {
              double storm = Math.min(t, 100);
              s.deopts(30 * storm, 30 * storm / 8);
            });

    assertThat(rule.evaluate(context(ended, Set.of(""), 60))).as("firing: resolves").isEmpty();
    assertThat(rule.evaluate(context(ended, Set.of(), 60))).as("resolved: stays so").isEmpty();
    SignalHistory storming = Samples.history(124, (s, t) -> s.deopts(30.0 * t, 30.0 * t / 8));
    assertThat(rule.evaluate(context(storming, Set.of(), 60))).as("a storm pages").hasSize(1);
  }

  private RuleContext context(SignalHistory history, Set<String> firing, double window) {
    return Samples.context(rule, history, firing, Map.of("windowSeconds", window));
  }
}
