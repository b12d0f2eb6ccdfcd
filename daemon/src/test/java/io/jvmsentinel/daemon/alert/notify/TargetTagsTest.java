package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firingWithTargetTags;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.Secret;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The target's tags (from discovery: namespace, pod, ...) reach every sink, as labels where the
 * sink routes on labels, and never replace the alert's own labels.
 */
class TargetTagsTest {
  private final AlertNotification tagged = firingWithTargetTags();

  @Test
  void alertmanagerLabelsCarryTheTagsButKeepTheAlertsOwn() {
    JsonNode labels = AlertmanagerNotifier.body(tagged, Instant.EPOCH).get(0).get("labels");
    assertThat(labels.get("namespace").asText()).isEqualTo("shop");
    assertThat(labels.get("pod").asText()).isEqualTo("orders-7f9c");
    assertThat(labels.get("severity").asText()).isEqualTo("critical");
    assertThat(labels.get("target").asText()).isEqualTo("shop.orders-7f9c");
  }

  @Test
  void webhookLogSlackAndPagerDutyNameTheTags() {
    assertThat(WebhookNotifier.body(tagged).get("targetTags").get("namespace").asText())
        .isEqualTo("shop");
    assertThat(JsonLogNotifier.line(tagged)).contains("\"targetTags\":{\"namespace\":\"shop\"");
    assertThat(SlackNotifier.body(tagged).toString()).contains("namespace=shop", "pod=orders-7f9c");
    assertThat(
            PagerDutyNotifier.body(tagged, Secret.of("K"))
                .get("payload")
                .get("custom_details")
                .get("target_tags")
                .get("pod")
                .asText())
        .isEqualTo("orders-7f9c");
  }

  @Test
  void aTargetWithoutTagsAddsNothing() {
    assertThat(WebhookNotifier.body(firing()).get("targetTags").isEmpty()).isTrue();
    assertThat(
            PagerDutyNotifier.body(firing(), Secret.of("K"))
                .get("payload")
                .get("custom_details")
                .has("target_tags"))
        .isFalse();
  }
}
