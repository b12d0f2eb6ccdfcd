package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertKeyTest {
  final AlertKey storm = new AlertKey("ThreadStorm", "orders", "");

  @Test
  void withoutAPodTheKeyIsAsBeforePodIdentity() {
    assertThat(storm.dedupKey(PodIdentity.NONE)).isEqualTo("jvm-sentinel/ThreadStorm/orders");
    assertThat(new AlertKey("CodeCacheFull", "orders", "profiled").dedupKey(Map.of()))
        .isEqualTo("jvm-sentinel/CodeCacheFull/orders/profiled");
  }

  @Test
  void aKeyTheTargetChoseGivesADedupKeyPagerDutyTakesStableAndDistinct() {
    String peer = "x".repeat(300);
    AlertKey one = new AlertKey("TlsHandshakeStorm", "orders", peer + ":443");
    AlertKey other = new AlertKey("TlsHandshakeStorm", "orders", peer + ":8443");

    assertThat(one.dedupKey(Map.of()))
        .hasSize(AlertKey.DEDUP_KEY_MAX)
        .startsWith("jvm-sentinel/TlsHandshakeStorm/orders/xxx")
        .matches(".*~[0-9a-f]{16}")
        .isEqualTo(new AlertKey("TlsHandshakeStorm", "orders", peer + ":443").dedupKey(Map.of()))
        .isNotEqualTo(other.dedupKey(Map.of()));
  }

  @Test
  void twoReplicasWithTheSameTargetNameHaveTwoKeys() {
    Map<String, String> a = Map.of("namespace", "shop", "pod", "orders-a", "container", "app");
    Map<String, String> b = Map.of("namespace", "shop", "pod", "orders-b", "container", "app");

    assertThat(storm.dedupKey(a)).isEqualTo("jvm-sentinel/ThreadStorm/orders@shop/orders-a/app");
    assertThat(storm.dedupKey(b)).isNotEqualTo(storm.dedupKey(a));
  }

  @Test
  void theNodeAndOtherTagsAreNotPartOfTheKey() {
    Map<String, String> tags =
        Map.of("namespace", "shop", "pod", "orders-a", "container", "app", "node", "n1");
    Map<String, String> moreTags =
        Map.of("namespace", "shop", "pod", "orders-a", "container", "app", "app", "orders");

    assertThat(storm.dedupKey(tags)).isEqualTo(storm.dedupKey(moreTags));
  }

  @Test
  void aNotificationAndTheStateFileAgreeOnTheKey() {
    Map<String, String> tags = Map.of("namespace", "shop", "pod", "orders-a", "container", "app");
    FiringAlertRecord record =
        new FiringAlertRecord(
            "ThreadStorm",
            "orders",
            "",
            Severity.WARNING,
            java.time.Instant.EPOCH,
            "storm",
            null,
            tags,
            "");
    AlertNotification notification =
        new AlertNotification(
                "ThreadStorm",
                "orders",
                "",
                Severity.WARNING,
                AlertNotification.Status.FIRING,
                java.time.Instant.EPOCH,
                java.time.Instant.EPOCH,
                "storm",
                "",
                "",
                "",
                Map.of(),
                java.util.Optional.empty())
            .withTargetTags(tags);

    assertThat(notification.dedupKey()).isEqualTo(record.alertKey().dedupKey(record.targetTags()));
  }
}
