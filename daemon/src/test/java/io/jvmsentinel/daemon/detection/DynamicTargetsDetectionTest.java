package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Detection over targets that come and go: new ones are tracked, removed ones resolve. */
class DynamicTargetsDetectionTest {
  @TempDir Path tmp;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final List<AlertNotification> sent = new ArrayList<>();
  private final MutableClock clock = new MutableClock(Samples.T0);
  private final ScriptedDetection.ScriptedRule rule = new ScriptedDetection.ScriptedRule();
  private final List<WatchedTarget> targets = new CopyOnWriteArrayList<>();
  private final List<WatchedTarget> created = new ArrayList<>();
  private DetectionEngine engine;

  @BeforeEach
  void engine() {
    targets.add(target("orders"));
    engine = ScriptedDetection.engine(() -> List.copyOf(targets), rule, sent::add, registry, clock);
  }

  @AfterEach
  void close() {
    engine.close();
    created.forEach(WatchedTarget::close);
  }

  @Test
  void aTargetAddedWhileRunningIsEvaluatedAndGetsItsGauges() {
    assertThat(alertGauges("payments")).isZero();
    targets.add(target("payments"));
    rule.keys = List.of("seg-a");
    tickFor(Duration.ofSeconds(6)); // longer than pendingFor
    assertThat(sent)
        .extracting(AlertNotification::target)
        .containsExactlyInAnyOrder("orders", "payments");
    assertThat(alertGauges("payments")).isEqualTo(1);
    assertThat(engine.history("payments")).isPresent();
  }

  @Test
  void aRemovedTargetsFiringAlertResolvesAtOnceAndItsGaugesAndHistoryGo() {
    WatchedTarget payments = target("payments");
    targets.add(payments);
    rule.keys = List.of("seg-a");
    tickFor(Duration.ofSeconds(6));
    assertThat(sent).hasSize(2);
    sent.clear();

    targets.remove(payments);
    tick(); // the condition still holds on orders; payments is gone
    assertThat(sent)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.target()).isEqualTo("payments");
              assertThat(n.status()).isEqualTo(AlertNotification.Status.RESOLVED);
            });
    assertThat(engine.active()).extracting(ActiveAlert::target).containsOnly("orders").isNotEmpty();
    assertThat(registry.find("jvm.sentinel.alert.active").tag("target", "payments").gauges())
        .isEmpty();
    assertThat(registry.find("jvm.sentinel.target.warming.up").tag("target", "payments").gauge())
        .isNull();
    assertThat(engine.history("payments")).isEmpty();
    assertThat(alertGauges("orders")).isEqualTo(1);
  }

  @Test
  void aPendingAlertOfARemovedTargetGoesWithoutANotification() {
    WatchedTarget payments = target("payments");
    targets.add(payments);
    rule.keys = List.of("seg-a");
    tick(); // pending on both
    targets.remove(payments);
    tick();
    assertThat(sent).isEmpty();
    assertThat(engine.active()).extracting(ActiveAlert::target).containsOnly("orders");
  }

  @Test
  void aTargetRestartedUnderTheSameNameIsANewTarget() {
    WatchedTarget first = target("payments");
    targets.add(first);
    rule.keys = List.of("seg-a");
    tickFor(Duration.ofSeconds(6));
    sent.clear();
    targets.remove(first);
    targets.add(target("payments")); // replaced between two ticks
    tick();
    assertThat(sent)
        .filteredOn(n -> n.target().equals("payments"))
        .singleElement()
        .satisfies(n -> assertThat(n.status()).isEqualTo(AlertNotification.Status.RESOLVED));
    // The new instance is tracked: pending again, with its gauges.
    assertThat(engine.active())
        .filteredOn(a -> a.target().equals("payments"))
        .singleElement()
        .satisfies(a -> assertThat(a.state()).isEqualTo(ActiveAlert.State.PENDING));
    assertThat(registry.find("jvm.sentinel.alert.active").tag("target", "payments").gauges())
        .hasSize(1);
  }

  private WatchedTarget target(String name) {
    WatchedTarget target = UnstartedTarget.create(name, registry, tmp.resolve(name));
    created.add(target);
    return target;
  }

  private void tickFor(Duration duration) {
    for (long s = 0; s <= duration.toSeconds(); s += 2) {
      tick();
    }
  }

  private void tick() {
    engine.tick();
    clock.advance(Duration.ofSeconds(2));
  }

  private double alertGauges(String target) {
    return registry.find("jvm.sentinel.alert.active").tag("target", target).gauges().stream()
        .mapToDouble(g -> g.value())
        .sum();
  }
}
