package io.jvmsentinel.daemon.alert.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.testing.AlertmanagerProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AlertmanagerNotifier} against a real Prometheus Alertmanager ({@link
 * AlertmanagerProcess}).
 */
public class AlertmanagerIT {
  @TempDir Path dir;
  AlertmanagerProcess alertmanager;
  URI base;

  @BeforeEach
  void startAlertmanager() throws IOException {
    alertmanager = AlertmanagerProcess.start(dir);
    base = alertmanager.base();
  }

  @AfterEach
  void stopAlertmanager() {
    if (alertmanager != null) {
      alertmanager.close();
    }
  }

  List<JsonNode> alerts(String rule) throws Exception {
    return alertmanager.alerts(rule);
  }

  @Test
  void firingIsActiveWithItsLabelsAndAnnotationsAndResolvedIsGone() throws Exception {
    Instant started = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    AlertNotification firing =
        new AlertNotification(
            "ThreadStorm",
            "orders",
            "ssl-listener",
            Severity.CRITICAL,
            AlertNotification.Status.FIRING,
            started,
            started,
            "Thread storm on orders: 212 thread starts/s",
            "One thread per TLS handshake (JDK-8246039).",
            "Upgrade the JDK.",
            "https://runbooks.example.com/ThreadStorm",
            Map.of("startsPerSecond", 212),
            Optional.of("/tmp/orders.jfr"));
    AlertmanagerNotifier notifier =
        new AlertmanagerNotifier(
            "alertmanager",
            base,
            JsonPoster.newClient(Duration.ofSeconds(5)),
            Duration.ofSeconds(5),
            Clock.systemUTC());

    notifier.send(firing);

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              List<JsonNode> alerts = alerts("ThreadStorm");
              assertThat(alerts).hasSize(1);
              JsonNode alert = alerts.get(0);
              assertThat(alert.path("status").path("state").asText()).isEqualTo("active");
              assertThat(alert.path("labels"))
                  .isEqualTo(
                      TestNotifications.json(
                          """
                          {"alertname": "ThreadStorm", "target": "orders", "key": "ssl-listener",
                           "severity": "critical", "source": "jvm-sentinel"}
                          """));
              assertThat(alert.path("annotations"))
                  .isEqualTo(
                      TestNotifications.json(
                          """
                          {"summary": "Thread storm on orders: 212 thread starts/s",
                           "description": "One thread per TLS handshake (JDK-8246039).",
                           "action": "Upgrade the JDK.",
                           "runbook_url": "https://runbooks.example.com/ThreadStorm",
                           "snapshot": "/tmp/orders.jfr"}
                          """));
              assertThat(Instant.parse(alert.path("startsAt").asText())).isEqualTo(started);
              assertThat(Instant.parse(alert.path("endsAt").asText()))
                  .isAfter(Instant.now().plus(Duration.ofMinutes(3)));
            });

    Instant resolvedAt = Instant.now();
    notifier.send(
        new AlertNotification(
            firing.ruleId(),
            firing.target(),
            firing.key(),
            firing.severity(),
            AlertNotification.Status.RESOLVED,
            firing.startedAt(),
            resolvedAt,
            firing.summary(),
            firing.explanation(),
            firing.action(),
            firing.runbook(),
            firing.evidence(),
            firing.snapshot()));

    await().atMost(Duration.ofSeconds(20)).until(() -> alerts("ThreadStorm").isEmpty());
  }
}
