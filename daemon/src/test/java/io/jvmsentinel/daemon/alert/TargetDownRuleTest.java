package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.TargetDownRule;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
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
          "streaming",
          null);

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

  /**
   * A 55 s JMX outage (lab {@code jmx-outage --phase 55s}): the reconnect attempts back off, the
   * last one failed 31 s in, the next comes 30 s later. At 60 s down nobody has looked for 29 s:
   * not 60 s seen unreachable, and the target may well answer at the next attempt (it did).
   */
  @Test
  void aTargetLastFoundUnreachableBeforeTheThresholdIsNotReportedWhileNobodyLooks() {
    SignalSample.Target triedAt31 = lastFailure(lost.since().plusSeconds(31));
    SignalHistory history = Samples.history(80, (s, t) -> s.down(64).target(triedAt31));

    assertThat(rule.evaluate(context(history))).isEmpty();
  }

  @Test
  void aTargetFoundUnreachableAtAnAttemptAfterTheThresholdIsReported() {
    SignalSample.Target triedAt62 = lastFailure(lost.since().plusSeconds(62));
    SignalHistory history = Samples.history(80, (s, t) -> s.down(63).target(triedAt62));

    assertThat(rule.evaluate(context(history)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).startsWith("Target orders unreachable for 63 s");
              assertThat(f.evidence()).containsEntry("lastFailure", "2026-11-22T10:01:07Z");
            });
  }

  private SignalSample.Target lastFailure(java.time.Instant at) {
    return new SignalSample.Target(
        lost.address(),
        lost.since(),
        lost.lastError(),
        lost.connectAttempts(),
        lost.javaVersion(),
        lost.vmOptions(),
        lost.jfrState(),
        at);
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

  @Test
  void aTargetThatWentDarkThrashingInGcSaysSo() {
    // 60 s seen spending 80% of the time in GC pauses, then 70 s without an answer.
    SignalHistory history = wentDarkAfter((s, t) -> s.gcPause(0.8 * t));

    assertThat(rule.evaluate(context(history)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.explanation())
                  .contains(
                      "In its last 30 s before it stopped answering it spent 80% of the time in GC"
                          + " pauses")
                  .doesNotContain("threads a second");
              assertThat(f.evidence()).containsEntry("gcPauseShareBeforeDown", 0.8);
            });
  }

  @Test
  void aTargetThatWentDarkInAThreadStormSaysSo() {
    SignalHistory history = wentDarkAfter((s, t) -> s.threadStarts(400.0 * t));

    assertThat(rule.evaluate(context(history)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.explanation())
                  .contains("it started 400 threads a second")
                  .doesNotContain("GC pauses");
              assertThat(f.evidence()).containsEntry("threadStartsPerSecondBeforeDown", 400.0);
            });
  }

  @Test
  void aQuietTargetThatWentDarkNamesNoCause() {
    SignalHistory history = wentDarkAfter((s, t) -> s.gcPause(0.01 * t).threadStarts(2.0 * t));

    assertThat(rule.evaluate(context(history)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.explanation()).doesNotContain("In its last");
              assertThat(f.evidence())
                  .doesNotContainKeys("gcPauseShareBeforeDown", "threadStartsPerSecondBeforeDown");
            });
  }

  /** 60 s of data shaped by {@code seen}, then 70 s without an answer (the last data kept). */
  private SignalHistory wentDarkAfter(BiConsumer<Samples, Integer> seen) {
    return Samples.history(
        130,
        (s, t) -> {
          seen.accept(s, Math.min(t, 60));
          if (t > 60) {
            s.down(t - 60).target(lost);
          }
        });
  }

  private RuleContext context(SignalHistory history) {
    return Samples.context(rule, history, Set.of());
  }
}
