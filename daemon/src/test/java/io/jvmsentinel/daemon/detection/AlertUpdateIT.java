package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.alert.notify.Notifications;
import io.jvmsentinel.daemon.alert.notify.Receiver;
import io.jvmsentinel.daemon.config.AlertsConfig;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.testing.AlertmanagerProcess;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The update path end to end: the production engine and every HTTP sink, a real Alertmanager and a
 * recording receiver for the webhook, Slack and PagerDuty. The target's timeline is the recorded
 * logger storm whose first 8 s arrive before the JFR stream is up ({@link
 * AlertLifeReplayTest#beforeTheStream}), moved to now so Alertmanager holds the alert as current.
 */
class AlertUpdateIT {
  private static final String CREATOR = "io.jvmsentinel.lab.ThreadPerEventLogger.log";

  @TempDir Path dir;
  final Receiver receiver;
  AlertmanagerProcess alertmanager;
  Notifications notifications;

  AlertUpdateIT() throws Exception {
    receiver = new Receiver();
  }

  @AfterEach
  void close() {
    if (notifications != null) {
      notifications.close(Duration.ofSeconds(5));
    }
    if (alertmanager != null) {
      alertmanager.close();
    }
    receiver.close();
  }

  @Test
  void anAlertRaisedWithoutItsCreatorIsUpdatedInEverySinkOnceTheStreamNamesIt() throws Exception {
    alertmanager = AlertmanagerProcess.start(dir);
    notifications =
        Notifications.start(
            new AlertsConfig(
                100,
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Optional.of(new AlertsConfig.Webhook(receiver.url("/hook"), Map.of())),
                Optional.of(new AlertsConfig.Slack(Secret.of(receiver.url("/slack").toString()))),
                Optional.of(
                    new AlertsConfig.PagerDuty(Secret.of("R0UT1NG"), receiver.url("/pagerduty"))),
                Optional.of(new AlertsConfig.Alertmanager(List.of(alertmanager.base()))),
                Optional.empty(),
                AlertsConfig.DEFAULT_RESTORE_GRACE,
                AlertsConfig.DEFAULT_RUNBOOK_BASE_URL),
            new SimpleMeterRegistry());
    String fixture = "storm-after-storm-jdk17";
    Instant storm = AlertLifeReplayTest.onset(fixture, "phase=logger-storm");
    Instant streamUp = storm.plusSeconds(8);
    List<SignalSample> recorded =
        AlertLifeReplayTest.fixture(fixture).stream()
            .filter(s -> s.at().isBefore(streamUp.plusSeconds(20))) // the storm still going
            .map(s -> s.at().isBefore(streamUp) ? AlertLifeReplayTest.beforeTheStream(s) : s)
            .toList();
    Duration shift = Duration.between(recorded.get(recorded.size() - 1).at(), Instant.now());
    List<AlertNotification> told = new ArrayList<>();
    MutableClock clock = new MutableClock(recorded.get(0).at().plus(shift));
    Object instance = new Object();
    SignalSample[] current = new SignalSample[1];
    SignalSource source =
        now ->
            List.of(new TargetSignals("orders", instance, Tags.of("pod", "orders-7"), current[0]));

    try (DetectionEngine engine =
        Replay.engine(
            source,
            clock,
            WarmUp.DEFAULT,
            AlertStateFile.none(),
            Duration.ZERO,
            notification -> {
              told.add(notification);
              notifications.notify(notification);
            })) {
      for (SignalSample sample : recorded) {
        current[0] = AlertLifeReplayTest.shifted(sample, shift);
        clock.set(current[0].at());
        engine.tick();
      }
    }

    assertThat(told)
        .extracting(AlertNotification::status)
        .containsExactly(AlertNotification.Status.FIRING, AlertNotification.Status.UPDATED);
    AlertNotification fired = told.get(0);
    AlertNotification updated = told.get(1);
    assertThat(fired.summary()).doesNotContain(CREATOR);
    assertThat(fired.explanation()).contains("the JFR stream is starting");
    assertThat(updated.summary()).contains(CREATOR);
    assertThat(Duration.between(streamUp.plus(shift), updated.at()))
        .as("update after the stream's first events")
        .isBetween(Duration.ZERO, Duration.ofSeconds(15));

    // Alertmanager holds one alert, its annotations those of the update.
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              List<JsonNode> alerts = alertmanager.alerts("ThreadStorm");
              assertThat(alerts).hasSize(1);
              JsonNode alert = alerts.get(0);
              assertThat(alert.path("labels").path("pod").asText()).isEqualTo("orders-7");
              assertThat(alert.path("annotations").path("summary").asText()).contains(CREATOR);
              assertThat(alert.path("annotations").path("description").asText())
                  .doesNotContain("JFR stream is starting");
              assertThat(Instant.parse(alert.path("startsAt").asText()))
                  .isEqualTo(fired.startedAt().truncatedTo(ChronoUnit.MILLIS));
            });
    // The webhook, Slack and PagerDuty each heard the firing, then the update of the same alert.
    await().atMost(Duration.ofSeconds(20)).until(() -> receiver.requests.size() >= 6);
    List<JsonNode> hook = bodies("/hook");
    assertThat(hook)
        .extracting(b -> b.path("status").asText())
        .containsExactly("firing", "updated");
    assertThat(hook).extracting(b -> b.path("dedupKey").asText()).containsOnly(fired.dedupKey());
    List<JsonNode> slack = bodies("/slack");
    assertThat(slack).hasSize(2);
    assertThat(slack.get(1).path("text").asText()).contains("[UPDATED]").contains(CREATOR);
    List<JsonNode> pagerduty = bodies("/pagerduty");
    assertThat(pagerduty)
        .extracting(b -> b.path("event_action").asText())
        .containsExactly("trigger", "trigger");
    assertThat(pagerduty)
        .extracting(b -> b.path("dedup_key").asText())
        .containsOnly(fired.dedupKey());
    assertThat(pagerduty.get(1).path("payload").path("summary").asText()).contains(CREATOR);
  }

  private List<JsonNode> bodies(String path) {
    return receiver.requests.stream()
        .filter(r -> r.path().equals(path))
        .map(Receiver.Request::body)
        .toList();
  }
}
