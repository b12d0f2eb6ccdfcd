package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The alert life cycle: pending, firing, resolved, with one alert per (rule, target, key). */
class DetectionEngineTest {
  @TempDir Path tmp;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final List<AlertNotification> sent = new ArrayList<>();
  private final MutableClock clock = new MutableClock(Samples.T0);
  private final ScriptedDetection.ScriptedRule rule = new ScriptedDetection.ScriptedRule();
  private WatchedTarget target;
  private DetectionEngine engine;

  @BeforeEach
  void engine() {
    target = UnstartedTarget.create("orders", registry, tmp);
    engine = ScriptedDetection.engine(() -> List.of(target), rule, sent::add, registry, clock);
  }

  @AfterEach
  void close() {
    engine.close();
    target.close();
  }

  @Test
  void aConditionFiresOnlyAfterItsPendingTimeAndResolvesAfterItsClearTime() {
    rule.keys = List.of("seg-a");
    tick(); // t=0: pending
    assertThat(engine.active())
        .singleElement()
        .satisfies(a -> assertThat(a.state()).isEqualTo(ActiveAlert.State.PENDING));
    tick(); // t=2
    assertThat(sent).isEmpty();
    tick(); // t=4: held for 4 s => fires
    assertThat(sent)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.status()).isEqualTo(AlertNotification.Status.FIRING);
              assertThat(n.dedupKey()).isEqualTo("jvm-sentinel/Scripted/orders/seg-a");
              assertThat(n.summary()).isEqualTo("trouble with seg-a");
              assertThat(n.runbook()).isEqualTo("alerts/runbooks/Scripted.md");
            });
    assertThat(gauge()).isEqualTo(1);

    tick(); // still firing: no second notification
    assertThat(sent).hasSize(1);

    rule.keys = List.of();
    tick(); // clear starts
    tick();
    tick();
    assertThat(sent).hasSize(1);
    tick(); // clear for 6 s => resolved
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1).status()).isEqualTo(AlertNotification.Status.RESOLVED);
    // The summary as it last fired: the status says resolved, and each sink labels it once.
    assertThat(sent.get(1).summary()).isEqualTo("trouble with seg-a");
    assertThat(engine.active()).isEmpty();
    assertThat(gauge()).isZero();
  }

  @Test
  void aConditionThatReturnsWhileClearingKeepsTheAlertWithoutANewPage() {
    rule.keys = List.of("seg-a");
    tick();
    tick();
    tick();
    rule.keys = List.of();
    tick();
    rule.keys = List.of("seg-a");
    tick();
    rule.keys = List.of();
    tick();
    tick();
    tick();
    assertThat(sent)
        .extracting(AlertNotification::status)
        .containsExactly(AlertNotification.Status.FIRING);
  }

  @Test
  void aFlickerShorterThanThePendingTimeNeverPages() {
    rule.keys = List.of("seg-a");
    tick();
    rule.keys = List.of();
    tick();
    rule.keys = List.of("seg-a");
    tick();
    tick();
    assertThat(sent).isEmpty();
  }

  @Test
  void eachKeyIsItsOwnAlert() {
    rule.keys = List.of("seg-a", "seg-b");
    tick();
    tick();
    tick();
    assertThat(sent).extracting(AlertNotification::key).containsExactlyInAnyOrder("seg-a", "seg-b");
    assertThat(gauge()).isEqualTo(2);
  }

  @Test
  void rulesThatNeedJfrHoldWhileTheStreamIsPausedForAStorm() {
    SignalWindow streaming = Samples.history(20, (s, t) -> s.threadStarts(100.0 * t)).snapshot();
    SignalWindow paused =
        Samples.history(20, (s, t) -> s.stormPaused().threadStarts(100.0 * t)).snapshot();
    SignalWindow jmxOnly =
        Samples.history(20, (s, t) -> s.jmxOnly().threadStarts(100.0 * t)).snapshot();
    AlertRule deopt = new io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule();
    AlertRule threads = new io.jvmsentinel.daemon.alert.rules.ThreadStormRule();

    assertThat(DetectionEngine.heldDuringStormPause(deopt, paused)).isTrue();
    assertThat(DetectionEngine.heldDuringStormPause(deopt, streaming)).isFalse();
    // A target without JFR at all is not paused: its JFR rules simply never fire.
    assertThat(DetectionEngine.heldDuringStormPause(deopt, jmxOnly)).isFalse();
    // ThreadStorm goes on with the JMX count.
    assertThat(DetectionEngine.heldDuringStormPause(threads, paused)).isFalse();
    assertThat(DetectionEngine.heldDuringStormPause(rule, paused)).isFalse();
  }

  private void tick() {
    engine.tick();
    clock.advance(Duration.ofSeconds(2));
  }

  private double gauge() {
    return registry.get("jvm.sentinel.alert.active").tag("alert", "Scripted").gauge().value();
  }
}
