package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.PodCredentials;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.TargetConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The allow-list: which pod gets which credentials, and what a pod off the list gets. */
class PodAccessTest {
  private static final PodCredentials SHOP_ORDERS =
      given(List.of("shop"), Map.of("app", Pattern.compile("orders|cart")), "shop-pw");
  private static final PodCredentials SHOP_AND_PAY =
      given(List.of("shop", "pay"), Map.of(), "any-pw");

  private final List<String> refused = new ArrayList<>();

  @Test
  void theFirstEntryWhoseNamespaceAndLabelsMatchApplies() {
    PodAccess access = access(List.of(SHOP_ORDERS, SHOP_AND_PAY));

    assertThat(access.allowed("shop", Map.of("app", "orders"))).contains(SHOP_ORDERS);
    assertThat(access.allowed("shop", Map.of("app", "orders-v2"))).contains(SHOP_AND_PAY);
    assertThat(access.allowed("shop", Map.of())).contains(SHOP_AND_PAY);
    assertThat(access.allowed("pay", Map.of("app", "orders"))).contains(SHOP_AND_PAY);
    assertThat(access.allowed("shop-staging", Map.of("app", "orders"))).isEmpty(); // exact names
    assertThat(access.allowed("Shop", Map.of())).isEmpty();
    assertThat(access.allowed("tenant", Map.of("app", "orders"))).isEmpty();
  }

  @Test
  void anAllowedPodGetsTheCredentialsOfItsEntry() {
    TargetConfig target =
        access(List.of(SHOP_ORDERS, SHOP_AND_PAY))
            .grant(pod("shop", Map.of("app", "cart"), false), bare(), refused::add)
            .orElseThrow();

    assertThat(target.username()).contains("monitor");
    assertThat(target.password()).contains(Secret.of("shop-pw"));
    assertThat(target.tls()).isEmpty();
    assertThat(refused).isEmpty();
  }

  @Test
  void aPodOffTheListGetsNothingAndIsWatchedOnlyIfItNeedsNoAuth() {
    PodAccess access = access(List.of(SHOP_ORDERS));

    assertThat(access.grant(pod("tenant", Map.of("app", "orders"), false), bare(), refused::add))
        .isEmpty();
    assertThat(refused)
        .singleElement()
        .asString()
        .contains("pod tenant.p is not watched")
        .contains("annotate it jvm-sentinel.io/jmx-auth: none");
    TargetConfig open =
        access.grant(pod("tenant", Map.of(), true), bare(), refused::add).orElseThrow();
    assertThat(open.username()).isEmpty();
    assertThat(open.password()).isEmpty();
  }

  @Test
  void jmxAuthNoneSendsNothingEvenToAnAllowedPod() {
    TargetConfig target =
        access(List.of(SHOP_AND_PAY))
            .grant(pod("shop", Map.of(), true), bare(), refused::add)
            .orElseThrow();

    assertThat(target.password()).isEmpty();
  }

  @Test
  void withoutAnyCredentialsConfiguredEveryPodIsWatchedWithoutThem() {
    TargetConfig target =
        access(List.of()).grant(pod("tenant", Map.of(), false), bare(), refused::add).orElseThrow();

    assertThat(target.username()).isEmpty();
    assertThat(target.password()).isEmpty();
    assertThat(refused).isEmpty();
  }

  private static PodCredentials given(
      List<String> namespaces, Map<String, Pattern> labels, String password) {
    return new PodCredentials(
        namespaces,
        labels,
        Optional.empty(),
        Optional.of("monitor"),
        Optional.of(Secret.of(password)),
        List.of(),
        true);
  }

  private static PodAccess access(List<PodCredentials> credentials) {
    KubernetesDiscoveryConfig settings =
        new KubernetesDiscoveryConfig(
            Optional.empty(),
            List.of(),
            Optional.empty(),
            KubernetesDiscoveryConfig.DEFAULT_ANNOTATION_PREFIX,
            List.of(),
            List.of(),
            Map.of(),
            Duration.ofSeconds(10),
            credentials,
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            KubernetesDiscoveryConfig.DEFAULT_SECRET_REFRESH);
    // Given credentials never need a Secret: no API client behind this one.
    return new PodAccess(settings, new AnnotatedPod(settings), null);
  }

  private static Pod pod(String namespace, Map<String, String> labels, boolean noAuth) {
    PodBuilder pod =
        new PodBuilder(MockApiServer.annotatedPod(namespace, "p", "10.0.0.1", "node-a", 9010))
            .editMetadata()
            .addToLabels(labels)
            .endMetadata();
    if (noAuth) {
      pod.editMetadata().addToAnnotations("jvm-sentinel.io/jmx-auth", "none").endMetadata();
    }
    return pod.build();
  }

  private static TargetConfig bare() {
    return new TargetConfig(
        "p",
        io.jvmsentinel.daemon.config.JmxAddress.parse("10.0.0.1:9010"),
        Optional.empty(),
        Optional.empty(),
        Duration.ofSeconds(10),
        Map.of());
  }
}
