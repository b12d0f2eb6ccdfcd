package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.http.AlertsRoute;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.Tags;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An alert whose target stops answering is held, not resolved: the API and the status page say so,
 * with since when, instead of showing it as plainly firing.
 */
class HeldAlertTest {
  private final MutableClock clock = new MutableClock(Samples.T0);
  private final List<AlertNotification> sent = new ArrayList<>();
  private SignalSample current;
  private double gcSeconds;

  @Test
  void aFiringAlertIsHeldWhileItsTargetDoesNotAnswerAndJudgedAgainWhenItDoes() {
    Object instance = new Object();
    SignalSource source =
        now -> List.of(new TargetSignals("orders", instance, Tags.empty(), current));
    try (DetectionEngine engine =
        Replay.engine(
            source, clock, WarmUp.DEFAULT, AlertStateFile.none(), Duration.ZERO, sent::add)) {
      AlertsRoute route = new AlertsRoute(engine);
      for (int s = 0; s < 90; s++) {
        tick(engine, 0.6, null); // 60% of the time in GC pauses
      }
      ActiveAlert firing = gcOverhead(engine);
      assertThat(firing.state()).isEqualTo(ActiveAlert.State.FIRING);
      assertThat(engine.heldBecause(firing)).isEmpty();
      assertThat(json(route)).doesNotContain("\"held\"");

      for (int s = 0; s < 30; s++) {
        tick(engine, 0, (double) s); // down for 30 s: longer than the rule's clear time
      }
      ActiveAlert held = gcOverhead(engine);
      assertThat(held.state()).isEqualTo(ActiveAlert.State.FIRING);
      assertThat(engine.heldBecause(held))
          .hasValueSatisfying(
              why ->
                  assertThat(why)
                      .startsWith("held since 2026-11-22T10:01:30Z")
                      .contains("the target does not answer"));
      assertThat(json(route)).contains("\"held\":\"held since 2026-11-22T10:01:30Z");

      tick(engine, 0.6, null);
      assertThat(engine.heldBecause(gcOverhead(engine))).isEmpty();
      assertThat(sent)
          .filteredOn(n -> n.status() != AlertNotification.Status.UPDATED)
          .extracting(AlertNotification::status)
          .containsExactly(AlertNotification.Status.FIRING);
    }
  }

  /** One second: {@code gcShare} of it in pauses; down for {@code downSeconds} when not null. */
  private void tick(DetectionEngine engine, double gcShare, Double downSeconds) {
    gcSeconds += gcShare;
    Samples sample = new Samples().at(clock.instant()).gcPause(gcSeconds);
    current = (downSeconds == null ? sample : sample.down(downSeconds)).build();
    engine.tick();
    clock.advance(Duration.ofSeconds(1));
  }

  private static ActiveAlert gcOverhead(DetectionEngine engine) {
    return engine.active().stream()
        .filter(a -> a.ruleId().equals("GcOverhead"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no GcOverhead alert in " + engine.active()));
  }

  private static String json(AlertsRoute route) {
    return new String(route.get(null).body(), StandardCharsets.UTF_8);
  }
}
