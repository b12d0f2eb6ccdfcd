package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.Secret;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** With http.externalUrl set, every sink carries the link to the alert's status page. */
class PageLinksTest {
  private static final String PAGE =
      "https://sentinel.example.com/targets/orders#alert=jvm-sentinel%2FThreadStorm%2Forders";

  private final AlertNotification linked = firing().withPage(PAGE);

  @Test
  void everySinkLinksToThePage() {
    assertThat(WebhookNotifier.body(linked).get("page").asText()).isEqualTo(PAGE);
    assertThat(JsonLogNotifier.line(linked)).contains("\"page\":\"" + PAGE + "\"");
    assertThat(SlackNotifier.body(linked).toString()).contains("<" + PAGE + "|Status page>");
    assertThat(PagerDutyNotifier.body(linked, Secret.of("K")).get("links").toString())
        .contains(PAGE, "Status page", "Runbook");
    assertThat(
            AlertmanagerNotifier.body(linked, Instant.EPOCH)
                .get(0)
                .get("annotations")
                .get("page_url")
                .asText())
        .isEqualTo(PAGE);
  }

  @Test
  void withoutAnExternalUrlNoSinkSaysPage() {
    assertThat(WebhookNotifier.body(firing()).has("page")).isFalse();
    assertThat(SlackNotifier.body(firing()).toString()).doesNotContain("Status page");
    assertThat(
            AlertmanagerNotifier.body(firing(), Instant.EPOCH)
                .get(0)
                .get("annotations")
                .has("page_url"))
        .isFalse();
  }
}
