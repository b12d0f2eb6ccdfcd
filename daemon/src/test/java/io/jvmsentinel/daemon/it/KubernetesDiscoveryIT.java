package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.discovery.MockApiServer;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code kubernetes} provider wired into a real daemon: a pod of fabric8's mock API server,
 * whose IP is this host's loopback and whose annotated JMX port is a real forked lab JVM's, is
 * polled, its series carry the pod's tags, and deleting the pod removes them.
 */
class KubernetesDiscoveryIT {
  private static final Duration READY = Duration.ofSeconds(30);
  private static final Duration UP = Duration.ofSeconds(30);
  private static final Map<String, String> POD_TAGS =
      Map.of(
          "target", "shop.orders-0",
          "namespace", "shop",
          "pod", "orders-0",
          "container", "app",
          "node", "node-a",
          "app", "orders");

  @TempDir Path dir;

  @Test
  void anAnnotatedPodIsPolledWithItsTagsAndForgottenWhenDeleted() throws Exception {
    long started = System.nanoTime();
    try (MockApiServer api = new MockApiServer();
        LabProcess lab = LabSpec.builder("idle").jvmArgs("-Xmx64m").build().startReady(READY);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                """
                jfr:
                  enabled: false
                discovery:
                  kubernetes:
                    apiServer: %s
                    pollInterval: 1s
                    labelTags: [app]
                """
                    .formatted(api.url()))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Pod pod =
          new PodBuilder(
                  MockApiServer.annotatedPod(
                      "shop", "orders-0", "127.0.0.1", "node-a", lab.jmxPort()))
              .editMetadata()
              .addToLabels("app", "orders")
              .endMetadata()
              .build();
      api.client().resource(pod).create();

      await()
          .atMost(UP)
          .untilAsserted(
              () ->
                  assertThat(http.scrape().value("jvm_sentinel_target_up", POD_TAGS))
                      .contains(1.0));
      long upMs = (System.nanoTime() - started) / 1_000_000;
      assertThat(http.scrape().series("jvm_memory_used_bytes", POD_TAGS)).isNotEmpty();

      api.client().resource(pod).delete();
      await()
          .atMost(UP)
          .untilAsserted(
              () ->
                  assertThat(http.scrape().samples())
                      .noneMatch(s -> "shop.orders-0".equals(s.labels().get("target"))));
      assertThat(daemon.targets()).isEmpty();
      System.out.printf(
          "KubernetesDiscoveryIT: pod target up %d ms after the test started; whole test %d ms%n",
          upMs, (System.nanoTime() - started) / 1_000_000);
    }
  }
}
