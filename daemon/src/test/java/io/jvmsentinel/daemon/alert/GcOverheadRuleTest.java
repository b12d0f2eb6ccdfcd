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
  void oneFullGcAfterAnEpisodeResolvedIsNoNewOverhead() {
    // 40% for a minute until 100 s, then nothing (resolved at about 125 s), then one 1.5 s full
    // GC at 127 s: the last minute still averages 25%, but 23 s of it are the episode's that ended.
    SignalHistory tail =
        Samples.history(
            130,
            (s, t) -> s.gcPause(0.4 * Math.max(0, Math.min(t, 100) - 40) + (t >= 128 ? 1.5 : 0)));
    SignalHistory pressure = Samples.history(130, (s, t) -> s.gcPause(0.4 * Math.max(0, t - 40)));

    assertThat(rule.evaluate(context(tail, Set.of()))).isEmpty();
    assertThat(rule.evaluate(context(pressure, Set.of()))).hasSize(1);
  }

  @Test
  void aDownTargetHasNoOverhead() {
    SignalHistory history = Samples.history(120, (s, t) -> s.gcPause(0.3 * t).down(5));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  /**
   * Measured live: 17 back-to-back full GCs (20 s) timed out the polls; the daemon reconnected once
   * they ended and no pause was ever notified. Their time, recovered at the first poll after, lies
   * between the last sample before the outage and the first after: it pages then, naming it.
   */
  @Test
  void aGcFreezeThatTimedOutThePollsPagesWhenTheTargetAnswersAgain() {
    SignalHistory history = Samples.history(100, (s, t) -> freeze(s, t, 80, 20, 17));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence()).containsEntry("unnotifiedPauseSeconds", 17.0);
              assertThat((double) f.evidence().get("pauseShareOfWallTime")).isGreaterThan(0.25);
              assertThat(f.explanation())
                  .contains("17.0 s of it in collections that froze the target");
            });
  }

  @Test
  void notificationsLostOnALiveConnectionAreNamedAsSuch() {
    // Answering throughout; 15 s of collections whose notifications the connector dropped.
    SignalHistory history =
        Samples.history(
            100,
            (s, t) -> s.gcPause(0.05 * t + (t >= 96 ? 15 : 0)).unnotifiedGcPause(t >= 96 ? 15 : 0));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.explanation())
                    .contains("15.0 s of it in collections whose notifications were lost"));
  }

  @Test
  void aFreezeResolvesOnceThePausesAreOver() {
    SignalHistory after = Samples.history(112, (s, t) -> freeze(s, t, 80, 20, 17));

    assertThat(rule.evaluate(context(after, Set.of("")))).isEmpty();
  }

  @Test
  void anOutageWithOrdinaryGcIsNoOverhead() {
    // 40 s without answers (a network blip), 2% of it in GC: 0.8 s recovered.
    for (int at = 100; at <= 140; at += 2) {
      int now = at;
      SignalHistory history = Samples.history(now, (s, t) -> freeze(s, t, 60, 40, 0.8));
      assertThat(rule.evaluate(context(history, Set.of()))).as("at %d s", now).isEmpty();
    }
  }

  @Test
  void aLongOutageDoesNotCrowdItsGcIntoTheWindow() {
    // Five minutes without answers at 5% GC: 15 s recovered, spread over the five minutes.
    for (int at = 402; at <= 470; at += 2) {
      int now = at;
      SignalHistory history = Samples.history(now, (s, t) -> freeze(s, t, 100, 300, 15));
      assertThat(rule.evaluate(context(history, Set.of()))).as("at %d s", now).isEmpty();
    }
  }

  /**
   * 2% of the time in GC, except that from {@code from} the target does not answer for {@code down}
   * s, and the first poll after recovers {@code recovered} s of unnotified collections.
   */
  private static void freeze(Samples s, int t, int from, int down, double recovered) {
    double notified = 0.02 * Math.min(t, from) + 0.02 * Math.max(0, t - from - down);
    boolean after = t >= from + down;
    s.gcPause(notified + (after ? recovered : 0)).unnotifiedGcPause(after ? recovered : 0);
    if (t > from && !after) {
      s.down(t - from);
    }
  }

  private RuleContext context(SignalHistory history, Set<String> firing) {
    return Samples.context(rule, history, firing);
  }
}
