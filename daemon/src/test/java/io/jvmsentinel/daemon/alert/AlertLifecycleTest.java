package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertLifecycle.Change;
import io.jvmsentinel.daemon.alert.AlertLifecycle.RuleTiming;
import io.jvmsentinel.daemon.alert.AlertLifecycle.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The alert life cycle as a function of findings and time: no engine, no clock, no sinks. */
class AlertLifecycleTest {
  static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
  static final RuleTiming STORM =
      new RuleTiming("ThreadStorm", Severity.WARNING, Duration.ZERO, Duration.ofSeconds(15));
  static final RuleTiming SLOW =
      new RuleTiming("CodeCacheChurn", Severity.CRITICAL, Duration.ofSeconds(4), Duration.ZERO);

  final AlertLifecycle lifecycle = new AlertLifecycle();
  final List<Transition> log = new ArrayList<>();

  static Finding finding(String cause) {
    return new Finding("", "storm", "why", "do", Map.of(), cause);
  }

  /** A ThreadStorm on orders that a previous daemon left firing since {@code startedAt}. */
  static FiringAlertRecord restoredStorm(Instant startedAt, String cause) {
    return new FiringAlertRecord(
        "ThreadStorm", "orders", "", Severity.WARNING, startedAt, "storm", null, Map.of(), cause);
  }

  /** Evaluates the rule at {@code second} with the findings; the transitions of that step. */
  List<Transition> at(int second, RuleTiming rule, Finding... findings) {
    List<Transition> step =
        lifecycle.evaluate(rule, "orders", List.of(findings), T0.plusSeconds(second));
    log.addAll(step);
    return step;
  }

  static List<Change> changes(List<Transition> transitions) {
    return transitions.stream().map(Transition::change).toList();
  }

  @Test
  void firesAfterPendingForAndResolvesAfterClearFor() {
    assertThat(at(0, SLOW, finding(""))).isEmpty();
    assertThat(lifecycle.alerts())
        .singleElement()
        .extracting(ActiveAlert::state)
        .isEqualTo(ActiveAlert.State.PENDING);
    assertThat(at(2, SLOW, finding(""))).isEmpty();
    assertThat(changes(at(4, SLOW, finding("")))).containsExactly(Change.FIRED);
    assertThat(lifecycle.firingKeys("CodeCacheChurn", "orders")).containsExactly("");
    // clearFor 0: the first clear evaluation resolves.
    assertThat(changes(at(6, SLOW))).containsExactly(Change.RESOLVED);
    assertThat(lifecycle.alerts()).isEmpty();
  }

  @Test
  void aPendingConditionThatClearsIsForgottenWithoutAPage() {
    at(0, SLOW, finding(""));
    assertThat(at(2, SLOW)).isEmpty();
    assertThat(lifecycle.alerts()).isEmpty();
    assertThat(at(4, SLOW, finding(""))).isEmpty(); // pending afresh, from 4 s
  }

  @Test
  void aConditionBackWithinClearForContinuesTheSameAlert() {
    at(0, STORM, finding("a"));
    at(5, STORM);
    at(10, STORM);
    assertThat(at(12, STORM, finding("a"))).isEmpty();
    at(20, STORM);
    assertThat(changes(at(35, STORM))).containsExactly(Change.RESOLVED);
    assertThat(changes(log)).containsExactly(Change.FIRED, Change.RESOLVED);
  }

  @Test
  void aCauseLearnedAfterFiringUpdatesTheAlertOnceItHasSettled() {
    assertThat(changes(at(0, STORM, finding("")))).containsExactly(Change.FIRED);
    at(1, STORM, finding(""));
    assertThat(at(2, STORM, finding("Worker.spawn"))).isEmpty(); // named, not yet settled
    assertThat(at(4, STORM, finding("Worker.spawn"))).isEmpty();
    List<Transition> update = at(5, STORM, finding("Worker.spawn"));
    assertThat(changes(update)).containsExactly(Change.UPDATED);
    assertThat(update.get(0).alert().finding().cause()).isEqualTo("Worker.spawn");
    assertThat(update.get(0).alert().since()).isEqualTo(T0); // the same alert, same start
    assertThat(at(6, STORM, finding("Worker.spawn"))).isEmpty(); // told once
  }

  @Test
  void causesThatAlternateTickByTickNeverUpdate() {
    at(0, STORM, finding(""));
    for (int s = 1; s < 120; s++) {
      at(s, STORM, finding(s % 2 == 0 ? "A.spawn" : "B.spawn"));
    }
    assertThat(changes(log)).containsExactly(Change.FIRED);
  }

  @Test
  void aDifferentCauseReplacesAKnownOneAtMostOnceAMinute() {
    at(0, STORM, finding("A.spawn"));
    for (int s = 1; s <= 30; s++) {
      at(s, STORM, finding("B.spawn"));
    }
    assertThat(changes(log))
        .as("a minute has not passed since firing")
        .containsExactly(Change.FIRED);
    for (int s = 31; s <= 60; s++) {
      at(s, STORM, finding("B.spawn"));
    }
    assertThat(changes(log)).containsExactly(Change.FIRED, Change.UPDATED);
    assertThat(log.get(1).alert().finding().cause()).isEqualTo("B.spawn");
  }

  @Test
  void aCauseThatBecomesUnknownAgainChangesNothing() {
    at(0, STORM, finding("A.spawn"));
    for (int s = 1; s <= 90; s++) {
      at(s, STORM, finding("")); // the stream paused: the JMX count knows no creator
    }
    for (int s = 91; s <= 100; s++) {
      at(s, STORM, finding("A.spawn")); // and back: nothing new to tell
    }
    assertThat(changes(log)).containsExactly(Change.FIRED);
  }

  @Test
  void keysLiveTheirOwnLives() {
    Finding a = new Finding("seg-a", "a", "", "", Map.of());
    Finding b = new Finding("seg-b", "b", "", "", Map.of());
    at(0, SLOW, a);
    at(2, SLOW, a, b);
    assertThat(changes(at(4, SLOW, a, b))).containsExactly(Change.FIRED);
    assertThat(changes(at(6, SLOW, a, b))).containsExactly(Change.FIRED);
    List<Transition> step = at(8, SLOW, b);
    assertThat(changes(step)).containsExactly(Change.RESOLVED);
    assertThat(step.get(0).alert().key()).isEqualTo("seg-a");
    assertThat(lifecycle.firingKeys("CodeCacheChurn", "orders")).containsExactly("seg-b");
  }

  @Test
  void aRestoredAlertContinuesWhenItHoldsAndIsUpdatedWhenItsCauseChanged() {
    FiringAlertRecord record = restoredStorm(T0.minusSeconds(60), "A.spawn");
    lifecycle.restore(record, T0.plusSeconds(60));
    assertThat(changes(at(0, STORM, finding("A.spawn")))).containsExactly(Change.CONTINUED);
    assertThat(lifecycle.alerts().get(0).since()).isEqualTo(T0.minusSeconds(60));

    // Seen again, it is a live alert: a cause that changes later updates it.
    for (int s = 61; s <= 70; s++) {
      at(s, STORM, finding("B.spawn"));
    }
    assertThat(changes(log)).containsExactly(Change.CONTINUED, Change.UPDATED);
  }

  @Test
  void aRestoredAlertNotSeenAgainEndsWhenAnotherCauseFollowsWhichPagesAnew() {
    lifecycle.restore(restoredStorm(T0.minusSeconds(60), "A.spawn"), T0.plusSeconds(60));
    at(0, STORM);
    List<Transition> step = at(30, STORM, finding("B.spawn"));

    assertThat(changes(step)).containsExactly(Change.RESOLVED, Change.FIRED);
    assertThat(step.get(0).alert().since()).isEqualTo(T0.minusSeconds(60));
    assertThat(step.get(0).why()).contains("another cause");
    assertThat(step.get(1).alert().since()).isEqualTo(T0.plusSeconds(30));
    assertThat(step.get(1).alert().finding().cause()).isEqualTo("B.spawn");
  }

  @Test
  void aRestoredAlertIsHeldThroughItsGraceThenResolvesAfterClearFor() {
    lifecycle.restore(restoredStorm(T0, ""), T0.plusSeconds(30));
    assertThat(at(0, STORM)).isEmpty();
    assertThat(at(29, STORM)).isEmpty();
    assertThat(at(30, STORM)).isEmpty(); // clear from 30 s
    assertThat(changes(at(45, STORM))).containsExactly(Change.RESOLVED);
  }

  @Test
  void endingATargetResolvesItsFiringAlertsSayingWhyAndDropsPendingOnes() {
    at(0, STORM, finding("A"));
    at(0, SLOW, finding(""));
    List<Transition> ended = lifecycle.endTarget("orders", "the target was removed");
    assertThat(ended)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.change()).isEqualTo(Change.RESOLVED);
              assertThat(t.alert().ruleId()).isEqualTo("ThreadStorm");
              assertThat(t.why()).isEqualTo("the target was removed");
            });
    assertThat(lifecycle.alerts()).isEmpty();
  }

  @Test
  void theStateFileKeepsTheCauseTheSinksWereLastTold() {
    at(0, STORM, finding(""));
    for (int s = 1; s <= 5; s++) {
      at(s, STORM, finding("A.spawn"));
    }
    assertThat(lifecycle.firingRecords(Map.of("orders", Map.of("pod", "orders-1"))))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.cause()).isEqualTo("A.spawn");
              assertThat(r.targetTags()).containsEntry("pod", "orders-1");
              assertThat(r.startedAt()).isEqualTo(T0);
            });
  }
}
