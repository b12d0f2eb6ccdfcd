package io.jvmsentinel.daemon.alert.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.AlertsConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notifications link runbooks under alerts.runbookBaseUrl, never as a bare repository path. */
class RunbookLinksTest {
  private static AlertNotification withRepositoryPath() {
    return TestNotifications.firing().withRunbook("alerts/runbooks/ThreadStorm.md");
  }

  @Test
  void aRepositoryPathBecomesALinkUnderTheBaseUrl() {
    RunbookLinks links = new RunbookLinks(URI.create("https://wiki.example.com/jvm/runbooks/"));
    assertThat(links.linked(withRepositoryPath()).runbook())
        .isEqualTo("https://wiki.example.com/jvm/runbooks/ThreadStorm.md");
    // An absolute link is left alone.
    assertThat(links.linked(TestNotifications.firing()).runbook())
        .isEqualTo("https://runbooks.example.com/ThreadStorm");
  }

  @Test
  void everySinkGetsTheLinkTheDefaultIsThisRepository() throws Exception {
    ScriptedNotifier sink = new ScriptedNotifier();
    Delivery delivery =
        Delivery.start(
            sink,
            10,
            Duration.ofMillis(10),
            Duration.ofMillis(10),
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    try (Notifications notifications = new Notifications(List.of(delivery), Duration.ofHours(1))) {
      notifications.submit(withRepositoryPath());
      assertThat(delivery.awaitIdle(Duration.ofSeconds(10))).isTrue();
    }
    assertThat(sink.delivered)
        .singleElement()
        .satisfies(
            n ->
                assertThat(n.runbook())
                    .isEqualTo(AlertsConfig.DEFAULT_RUNBOOK_BASE_URL + "ThreadStorm.md"));
  }
}
