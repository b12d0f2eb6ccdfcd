package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.IntervalCounts;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * DeoptimizationStorm's episodes (a storm that ended and resolved is not paged again) and its
 * judgement while warm-up settles.
 */
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

  @Test
  void whileWarmUpSettlesAStormOfTheSameMethodsPagesAndManyMethodsDeoptimisedOnceEachDoNot() {
    // 30 deoptimisations a second for a minute in both: a storm throwing the same four methods
    // away again and again, and a JIT settling (or a wave of new code) deoptimising 60 methods a
    // tick, each once, never the same again.
    SignalHistory storm =
        deoptimising(
            t ->
                List.of(
                    method("Shape.area", 15),
                    method("Shape.length", 15),
                    method("Shape.sign", 15),
                    method("Shape.at", 15)));
    SignalHistory settling =
        deoptimising(
            t ->
                IntStream.range(0, 60)
                    .mapToObj(i -> method("Stage" + t + "_" + i + ".apply", 1))
                    .toList());

    assertThat(rule.evaluate(Samples.settling(rule, storm, Set.of())))
        .as("settling, the same methods throughout: a storm")
        .hasSize(1);
    assertThat(rule.evaluate(Samples.settling(rule, settling, Set.of())))
        .as("settling, each method once")
        .isEmpty();
    assertThat(rule.evaluate(Samples.context(rule, settling, Set.of())))
        .as("after warm-up the rate alone decides")
        .hasSize(1);
    assertThat(rule.evaluate(Samples.warmingUp(rule, storm)))
        .as("in warm-up's first minutes nothing is judged")
        .isEmpty();
  }

  /** A minute at 30 deoptimisations a second, each 2 s tick's by method as {@code methods}. */
  private static SignalHistory deoptimising(IntFunction<List<IntervalCounts.Count>> methods) {
    return Samples.history(
        60,
        (s, t) ->
            s.deopts(30.0 * t, 30.0 * t / 8).deoptimized(t == 0 ? List.of() : methods.apply(t)));
  }

  private static IntervalCounts.Count method(String name, long count) {
    return new IntervalCounts.Count(name, count, List.of("class_check"));
  }

  private RuleContext context(SignalHistory history, Set<String> firing, double window) {
    return Samples.context(rule, history, firing, Map.of("windowSeconds", window));
  }
}
