package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.TargetDownRule;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** TargetDown on synthetic signal windows: down long enough, with what the session knows. */
class TargetDownRuleTest {
  private final TargetDownRule rule = new TargetDownRule();
  private final SignalSample.Target lost =
      new SignalSample.Target(
          "service:jmx:rmi:///jndi/rmi://orders:9010/jmxrmi",
          Samples.T0.plusSeconds(5),
          "poll did not finish within the call timeout (2000 ms): target hung or overloaded",
          7,
          "17.0.15",
          Map.of(),
          "streaming");

  @Test
  void aTargetDownLongerThanTheThresholdIsReportedWithTheReason() {
    SignalHistory history = Samples.history(20, (s, t) -> s.down(95).target(lost));

    assertThat(rule.evaluate(context(history)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.key()).isEmpty();
              assertThat(f.summary())
                  .isEqualTo(
                      "Target orders unreachable for 95 s: poll did not finish within the call"
                          + " timeout (2000 ms): target hung or overloaded");
              assertThat(f.explanation())
                  .contains("service:jmx:rmi:///jndi/rmi://orders:9010/jmxrmi")
                  .contains("2026-11-22T10:00:05Z");
              assertThat(f.evidence())
                  .containsEntry("address", "service:jmx:rmi:///jndi/rmi://orders:9010/jmxrmi")
                  .containsEntry("downSince", "2026-11-22T10:00:05Z")
                  .containsEntry("connectAttempts", 7L);
            });
  }

  @Test
  void aShortOutageIsNotReported() {
    SignalHistory history = Samples.history(20, (s, t) -> s.down(59).target(lost));

    assertThat(rule.evaluate(context(history))).isEmpty();
  }

  @Test
  void theThresholdItselfIsEnough() {
    SignalHistory history = Samples.history(20, (s, t) -> s.down(60).target(lost));

    assertThat(rule.evaluate(context(history))).hasSize(1);
  }

  @Test
  void aTargetThatCameBackIsNotDownWhateverItsPast() {
    SignalHistory history =
        Samples.history(
            200,
            (s, t) -> {
              if (t < 190) {
                s.down(t).target(lost);
              }
            });

    assertThat(rule.evaluate(context(history))).isEmpty();
  }

  private RuleContext context(SignalHistory history) {
    return Samples.context(rule, history, Set.of());
  }
}
