package io.jvmsentinel.daemon.discovery;

import static io.jvmsentinel.daemon.discovery.MockApiServer.annotatedPod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.config.JmxAddress;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which pod is a target, at which address, with which tags (no API server needed). */
class AnnotatedPodTest {
  private final List<String> problems = new ArrayList<>();

  @Test
  void aTerminatingPodIsNoTarget() {
    Pod terminating =
        new PodBuilder(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010))
            .editMetadata()
            .withDeletionTimestamp("2026-11-25T08:00:00Z")
            .endMetadata()
            .build();
    assertThat(target(terminating, "jvm-sentinel.io/")).isEmpty();
    assertThat(
            target(
                annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010), "jvm-sentinel.io/"))
        .isPresent();
    assertThat(problems).isEmpty();
  }

  @Test
  void anIpv6PodIpIsBracketed() {
    TargetConfig target =
        target(annotatedPod("shop", "orders-0", "fd00::17", "node-a", 9010), "jvm-sentinel.io/")
            .orElseThrow();
    assertThat(target.address()).isEqualTo(JmxAddress.parse("[fd00::17]:9010"));
  }

  @Test
  void theContainerTagIsTheAnnotatedOneElseTheOneDeclaringThePort() {
    Pod twoContainers =
        new PodBuilder(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010))
            .editSpec()
            .addNewContainer()
            .withName("jvm")
            .addNewPort()
            .withContainerPort(9010)
            .endPort()
            .endContainer()
            .endSpec()
            .build();
    assertThat(target(twoContainers, "jvm-sentinel.io/").orElseThrow().tags())
        .containsEntry("container", "jvm");
    Pod annotated =
        new PodBuilder(twoContainers)
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/container", "sidecar")
            .endMetadata()
            .build();
    assertThat(target(annotated, "jvm-sentinel.io/").orElseThrow().tags())
        .containsEntry("container", "sidecar");
  }

  @Test
  void annotationsUnderAnotherPrefixAreNotRead() {
    Pod pod = annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010);
    assertThat(target(pod, "jmx.example.com/")).isEmpty();
    Pod prefixed =
        new PodBuilder(pod)
            .editMetadata()
            .withAnnotations(
                Map.of("jmx.example.com/scrape", "true", "jmx.example.com/jmx-port", "9020"))
            .endMetadata()
            .build();
    assertThat(target(prefixed, "jmx.example.com/").orElseThrow().address())
        .isEqualTo(JmxAddress.parse("10.0.0.1:9020"));
  }

  @Test
  void aPortOutOfRangeIsExplained() {
    Pod pod =
        new PodBuilder(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010))
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/jmx-port", "70000")
            .endMetadata()
            .build();
    assertThat(target(pod, "jvm-sentinel.io/")).isEmpty();
    assertThat(problems)
        .containsExactly(
            "pod shop.orders-0: jvm-sentinel.io/jmx-port is \"70000\"; give a port number"
                + " 1..65535");
  }

  private Optional<TargetConfig> target(Pod pod, String prefix) {
    KubernetesDiscoveryConfig settings =
        new KubernetesDiscoveryConfig(
            Optional.empty(),
            List.of(),
            Optional.empty(),
            prefix,
            List.of(),
            List.of(),
            Map.of(),
            Duration.ofSeconds(10),
            List.of(),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            KubernetesDiscoveryConfig.DEFAULT_SECRET_REFRESH);
    return new AnnotatedPod(settings).target(pod, problems::add);
  }
}
