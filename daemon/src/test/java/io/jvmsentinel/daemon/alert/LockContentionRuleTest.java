package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.locks.LockContention;
import io.jvmsentinel.collectors.jmx.LockHolders;
import io.jvmsentinel.daemon.alert.rules.LockContentionRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** LockContention on synthetic signal windows (sampled every 2 s, as the engine samples). */
class LockContentionRuleTest {
  private static final String CACHE = "com.example.ConnectionCache";
  private static final String KEEP_ALIVE = "sun.net.www.http.KeepAliveCache";
  private final LockContentionRule rule = new LockContentionRule();

  /** {@code threads} threads blocked on {@code lockClass} for the whole 2 s tick. */
  private static LockContention blocked(String lockClass, double threads) {
    long nanos = (long) (threads * 2e9);
    return new LockContention(
        nanos,
        List.of(
            new LockContention.Lock(
                "monitor-enter",
                lockClass,
                nanos,
                40,
                12,
                List.of(
                    new LockContention.Site(
                        lockClass + ".get", nanos, List.of(lockClass + ".get:10", "App.serve:5"))),
                List.of(new LockContention.Site("worker-#", nanos, List.of())))));
  }

  private static LockHolders holder(String lockClass) {
    return new LockHolders(
        0,
        List.of(
            new LockHolders.Monitor(
                lockClass,
                8,
                List.of(lockClass + ".get"),
                "worker-3",
                "RUNNABLE",
                lockClass + ".closeIdle",
                List.of("java.net.SocketOutputStream.write:1", lockClass + ".closeIdle:42"))));
  }

  @Test
  void sustainedBlockingOnOneLockNamesTheLockTheBlockedSitesAndTheHolder() {
    SignalHistory history =
        Samples.history(
            20, (s, t) -> s.contention(40, 8, blocked(CACHE, 8), t == 18 ? holder(CACHE) : null));

    List<Finding> findings = rule.evaluate(context(history, Set.of()));

    assertThat(findings)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary())
                  .isEqualTo(
                      "Lock contention on orders: 8.0 threads blocked on "
                          + CACHE
                          + " on average; held by worker-3 in "
                          + CACHE
                          + ".closeIdle");
              assertThat(f.evidence())
                  .containsEntry("lockClass", CACHE)
                  .containsEntry("blockedThreadsAverage", 8.0)
                  .containsEntry("shareOfThreadsBlocked", 0.2)
                  .containsEntry("shareOfThreadsAffected", 0.3)
                  .doesNotContainKey("knownCause");
              @SuppressWarnings("unchecked")
              Map<String, Object> holder = (Map<String, Object>) f.evidence().get("holder");
              assertThat(holder).containsEntry("lockedAt", CACHE + ".closeIdle");
              assertThat(f.evidence().get("blockedSites").toString()).contains("App.serve:5");
              assertThat(f.evidence().get("owners").toString()).contains("worker-#");
            });
  }

  @Test
  void aShortBurstOfBlockingIsNotSustained() {
    SignalHistory history =
        Samples.history(
            20,
            (s, t) ->
                s.contention(40, 0, t == 18 ? blocked(CACHE, 20) : LockContention.EMPTY, null));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void aFewBlockedThreadsAmongManyAreNotContention() {
    SignalHistory history =
        Samples.history(20, (s, t) -> s.contention(400, 3, blocked(CACHE, 3), null));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void belowTheBlockedThreadFloorIsHealthy() {
    SignalHistory history =
        Samples.history(20, (s, t) -> s.contention(10, 1, blocked(CACHE, 1.5), null));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void theKeepAliveCacheIsRecognisedAsJdk8293562() {
    SignalHistory history =
        Samples.history(20, (s, t) -> s.contention(40, 8, blocked(KEEP_ALIVE, 8), null));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence()).containsEntry("knownCause", "JDK-8293562");
              assertThat(f.summary()).contains("(JDK-8293562)");
              assertThat(f.explanation()).contains("KeepAliveCache");
            });
  }

  @Test
  void withoutJfrBlockedThreadStatesAndTheHolderDumpStillNameTheLock() {
    SignalHistory history =
        Samples.history(
            20,
            (s, t) ->
                s.jmxOnly()
                    .contention(40, 10, LockContention.EMPTY, t == 20 ? holder(CACHE) : null));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence())
                  .containsEntry("lockClass", CACHE)
                  .containsEntry("blockedThreadsAverage", 10.0);
              assertThat(f.evidence().get("source").toString()).startsWith("JMX thread states");
              assertThat(f.evidence()).doesNotContainKey("blockedSites");
            });
  }

  @Test
  void withoutJfrOneStallOfEveryRequestThreadIsNotSustained() {
    // The lock-refresh-burst probe: a cache rebuilt under its lock, all 16 request threads BLOCKED
    // for 5 s (read every second, as the detection poll does), nobody before or after. The stall
    // touches 3 of the 6 sub-windows of 12 s, one only at its edge (1 of its 2 readings): on
    // average 8 blocked there, and the rule paged. It held 5 s of the 12.
    SignalHistory history = new SignalHistory(java.time.Duration.ofMinutes(15));
    for (int t = 0; t <= 30; t++) {
      boolean stalled = t >= 22 && t <= 26;
      history.add(
          new Samples()
              .at(Samples.T0.plusSeconds(t))
              .jmxOnly()
              .contention(
                  45, stalled ? 16 : 0, LockContention.EMPTY, stalled ? holder(CACHE) : null)
              .build());
      assertThat(rule.evaluate(context(history, Set.of()))).as("at %d s", t).isEmpty();
    }
  }

  @Test
  void withoutJfrContentionThroughHalfTheWindowIsSustained() {
    SignalHistory history = new SignalHistory(java.time.Duration.ofMinutes(15));
    for (int t = 0; t <= 30; t++) {
      boolean blocked = t >= 20;
      history.add(
          new Samples()
              .at(Samples.T0.plusSeconds(t))
              .jmxOnly()
              .contention(
                  45, blocked ? 16 : 0, LockContention.EMPTY, blocked ? holder(CACHE) : null)
              .build());
    }

    assertThat(rule.evaluate(context(history, Set.of()))).hasSize(1);
  }

  @Test
  void aYoungJmxOnlyHistoryStillGivesTheBlockedThreadCount() {
    // 5 s of history, less than half the 12 s window: the alert may fire (the contention shows in
    // every sub-window there is), and its numbers come from the same samples.
    SignalHistory history = new SignalHistory(java.time.Duration.ofMinutes(15));
    for (int t = 0; t <= 5; t++) {
      history.add(
          new Samples()
              .at(Samples.T0.plusSeconds(t))
              .jmxOnly()
              .contention(40, 10, LockContention.EMPTY, t == 5 ? holder(CACHE) : null)
              .build());
    }

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence())
                  .containsEntry("blockedThreadsAverage", 10.0)
                  .containsEntry("liveThreads", 40L);
              assertThat(f.summary()).contains("10.0 threads blocked on " + CACHE);
            });
  }

  @Test
  void withoutJfrTheEvidenceSaysWhichSignalsAreMissingAndWhy() {
    ContentionSignals jdk11 =
        new ContentionSignals(false, "unavailable: Java 11 has no remote JFR streaming", false);
    SignalHistory history =
        Samples.history(
            20, (s, t) -> s.jmxOnly().contention(40, 10, LockContention.EMPTY, null, jdk11));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence().get("missingSignals")).isInstanceOf(Map.class);
              Map<?, ?> missing = (Map<?, ?>) f.evidence().get("missingSignals");
              assertThat(missing.keySet().stream().map(String::valueOf).toList())
                  .contains("blockedSites", "owners", "parks", "blockedTime");
              assertThat(String.valueOf(missing.get("blockedSites"))).contains("Java 11");
            });
  }

  @Test
  void withJfrAndContentionMonitoringNothingIsMissing() {
    ContentionSignals full = new ContentionSignals(true, null, true);
    SignalHistory history =
        Samples.history(20, (s, t) -> s.contention(40, 6, blocked(CACHE, 6), null, full));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(f -> assertThat(f.evidence()).doesNotContainKey("missingSignals"));
  }

  @Test
  void aFiringAlertHoldsAtLowerContentionAndResolvesWhenItIsGone() {
    SignalHistory lower =
        Samples.history(20, (s, t) -> s.contention(40, 6, blocked(CACHE, 6), null));
    SignalHistory gone =
        Samples.history(20, (s, t) -> s.contention(40, 0, LockContention.EMPTY, null));

    assertThat(rule.evaluate(context(lower, Set.of("")))).hasSize(1);
    assertThat(rule.evaluate(context(gone, Set.of("")))).isEmpty();
  }

  private RuleContext context(SignalHistory history, Set<String> firing) {
    return Samples.context(rule, history, firing);
  }
}
