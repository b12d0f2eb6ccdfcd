package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.resolved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.AlertsConfig;
import io.jvmsentinel.daemon.target.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NotificationsTest {
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  Delivery delivery(ScriptedNotifier sink) {
    return Delivery.start(
        sink,
        10,
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> 1.0),
        d -> {},
        registry);
  }

  @Test
  void fansOutToEverySinkAndResendsStillFiringAlertsOnlyWhereNeeded() throws Exception {
    ScriptedNotifier plain = new ScriptedNotifier();
    ScriptedNotifier alertmanager = new ScriptedNotifier();
    alertmanager.resends = true;
    AlertNotification a = firing("A", "orders");
    AlertNotification b = firing("B", "orders");
    // A long interval: the test calls resendFiring() itself.
    Delivery toPlain = delivery(plain);
    Delivery toAlertmanager = delivery(alertmanager);
    try (Notifications notifications =
        new Notifications(List.of(toPlain, toAlertmanager), Duration.ofHours(1))) {
      notifications.submit(a);
      notifications.submit(b);
      notifications.submit(resolved(a));
      assertThat(toPlain.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(toAlertmanager.awaitIdle(Duration.ofSeconds(10))).isTrue();

      notifications.resendFiring();

      assertThat(toAlertmanager.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(alertmanager.delivered).containsExactly(a, b, resolved(a), b);
      assertThat(plain.delivered).containsExactly(a, b, resolved(a));
    }
  }

  @Test
  void anAlertContinuedAfterADaemonRestartPagesNobodyButKeepsAlertmanagerReminded()
      throws Exception {
    ScriptedNotifier plain = new ScriptedNotifier();
    ScriptedNotifier alertmanager = new ScriptedNotifier();
    alertmanager.resends = true;
    AlertNotification restored = firing("A", "orders");
    Delivery toPlain = delivery(plain);
    Delivery toAlertmanager = delivery(alertmanager);
    try (Notifications notifications =
        new Notifications(List.of(toPlain, toAlertmanager), Duration.ofHours(1))) {
      notifications.continued(restored);
      assertThat(toAlertmanager.awaitIdle(Duration.ofSeconds(10))).isTrue();
      // Delivered, so nothing is pending: the periodic resend reminds Alertmanager again.
      notifications.resendFiring();
      notifications.submit(resolved(restored));

      assertThat(toPlain.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(toAlertmanager.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(plain.delivered).containsExactly(resolved(restored));
      assertThat(alertmanager.delivered).containsExactly(restored, restored, resolved(restored));
    }
  }

  @Test
  void aSinkThatIsBehindGetsNoResends() throws Exception {
    ScriptedNotifier alertmanager = new ScriptedNotifier();
    alertmanager.resends = true;
    alertmanager.down = n -> true;
    Delivery delivery = delivery(alertmanager);
    try (Notifications notifications = new Notifications(List.of(delivery), Duration.ofHours(1))) {
      notifications.submit(firing());

      notifications.resendFiring();

      assertThat(delivery.pending()).isEqualTo(1);
      alertmanager.down = n -> false;
      assertThat(delivery.awaitIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(alertmanager.delivered).containsExactly(firing());
    }
  }

  @Test
  void theResenderRunsByItself() {
    ScriptedNotifier alertmanager = new ScriptedNotifier();
    alertmanager.resends = true;
    try (Notifications notifications =
        new Notifications(List.of(delivery(alertmanager)), Duration.ofMillis(50))) {
      notifications.submit(firing());

      await().until(() -> alertmanager.delivered.size() >= 3);
      assertThat(alertmanager.delivered).containsOnly(firing());
    }
  }

  @Test
  void sinksComeFromTheConfigWithTheLogFirst() {
    AlertsConfig config =
        new AlertsConfig(
            10,
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            Optional.of(new AlertsConfig.Webhook(URI.create("http://127.0.0.1:1/h"), Map.of())),
            Optional.empty(),
            Optional.empty(),
            Optional.of(
                new AlertsConfig.Alertmanager(
                    List.of(URI.create("http://127.0.0.1:1"), URI.create("http://127.0.0.1:2")))),
            Optional.empty(),
            AlertsConfig.DEFAULT_RESTORE_GRACE,
            AlertsConfig.DEFAULT_RUNBOOK_BASE_URL);
    try (Notifications notifications = Notifications.start(config, registry)) {
      assertThat(notifications.sinks())
          .containsExactly("log", "webhook", "alertmanager-1", "alertmanager-2");
      assertThat(registry.get("jvm.sentinel.notification.queue").gauges()).hasSize(4);
      assertThat(registry.get("jvm.sentinel.notifications").counters()).hasSize(16);
    }
  }
}
