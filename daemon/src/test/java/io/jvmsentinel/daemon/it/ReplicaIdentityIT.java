package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.notify.Receiver;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines;
import io.jvmsentinel.daemon.export.datadog.FakeAgent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of one app, each with its sidecar daemon, configured alike ({@code name: orders}, as
 * a chart renders it for every replica), told apart only by their pods' downward-API identity. Both
 * daemons send to one webhook, one PagerDuty service, one Alertmanager and one Datadog Agent, as in
 * a cluster. Replica a's thread storm ends while replica b's goes on: a's resolve must not close
 * b's incident.
 */
class ReplicaIdentityIT {
  private static final String APP = "orders";

  @TempDir Path dir;

  @Test
  void twoReplicasOfOneAppAreTwoIdentitiesEverywhereAndResolveApart() throws Exception {
    // a: a storm that ends after 45 s, then quiet; b: a storm that goes on.
    LabSpec stormThatEnds =
        LabSpec.builder("thread-per-request")
            .javaHome(Jdks.jdk17())
            .rate(300)
            .duration(Duration.ofSeconds(45))
            .args("--linger", "300s")
            .build();
    LabSpec stormThatGoesOn =
        LabSpec.builder("thread-per-request").javaHome(Jdks.jdk17()).rate(300).build();
    try (Receiver sinks = new Receiver();
        FakeAgent agent = FakeAgent.udp();
        LabProcess labA = stormThatEnds.startReady(Duration.ofSeconds(30));
        LabProcess labB = stormThatGoesOn.startReady(Duration.ofSeconds(30));
        SentinelDaemon a = Daemons.start(dir, sidecar(labA, sinks, agent), pod("orders-a"));
        SentinelDaemon b = Daemons.start(dir, sidecar(labB, sinks, agent), pod("orders-b"))) {
      List<DogStatsdLines.Line> sent =
          agent.record(
              line ->
                  line instanceof DogStatsdLines.Event
                      || line instanceof DogStatsdLines.Metric m
                          && m.name().equals("jvm.threads.live"));
      DaemonHttp httpA = new DaemonHttp(a.httpPort());
      DaemonHttp httpB = new DaemonHttp(b.httpPort());

      // Prometheus: each daemon's series carry its own replica's identity.
      for (var replica : Map.of("orders-a", httpA, "orders-b", httpB).entrySet()) {
        Map<String, String> identity = identity(replica.getKey());
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(
                            replica.getValue().scrape().value("jvm_sentinel_target_up", identity))
                        .contains(1.0));
        PrometheusText scrape = replica.getValue().scrape();
        assertThat(scrape.series("jvm_threads_live_threads"))
            .singleElement()
            .satisfies(s -> assertThat(s.labels()).containsAllEntriesOf(identity));
      }

      // DogStatsD: one agent, one metric, two series (not one gauge overwritten by the other).
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(podsOf(sent, "jvm.threads.live"))
                      .containsExactlyInAnyOrder("orders-a", "orders-b"));

      // Both storms fire, under two dedup keys, in every sink.
      String keyA = "jvm-sentinel/ThreadStorm/orders@shop/orders-a/app";
      String keyB = "jvm-sentinel/ThreadStorm/orders@shop/orders-b/app";
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                assertThat(statuses(sinks, keyA)).contains("firing");
                assertThat(statuses(sinks, keyB)).contains("firing");
              });
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                assertThat(pagerDuty(sinks, "trigger")).contains(keyA, keyB);
                assertThat(alertmanagerPods(sinks)).contains("orders-a", "orders-b");
              });

      // a's storm ends; its alert resolves, under its own key only.
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(() -> assertThat(statuses(sinks, keyA)).contains("resolved"));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(pagerDuty(sinks, "resolve")).contains(keyA));
      assertThat(statuses(sinks, keyB)).doesNotContain("resolved");
      assertThat(pagerDuty(sinks, "resolve")).doesNotContain(keyB);
      assertThat(httpB.get("/api/v1/alerts").body())
          .contains("\"alert\":\"ThreadStorm\"")
          .contains("\"state\":\"firing\"");
      // Alertmanager was told a's alert ended and b's did not.
      JsonNode lastOfB = lastAlertmanagerAlert(sinks, "orders-b");
      JsonNode lastOfA = lastAlertmanagerAlert(sinks, "orders-a");
      assertThat(lastOfA.path("endsAt").asText()).isLessThan(lastOfB.path("endsAt").asText());
      assertThat(lastOfB.path("labels").path("target").asText()).isEqualTo(APP);
      assertThat(lastOfB.path("labels").path("namespace").asText()).isEqualTo("shop");
      assertThat(lastOfB.path("labels").path("container").asText()).isEqualTo("app");
      assertThat(lastOfB.path("labels").path("node").asText()).isEqualTo("node-1");

      // Datadog events: each replica's fire and resolve under its own aggregation key.
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(
                          sent.stream()
                              .filter(ReplicaIdentityIT::isStormEvent)
                              .map(e -> ((DogStatsdLines.Event) e))
                              .map(e -> e.fields().get("k") + " " + e.fields().get("t"))
                              .collect(Collectors.toSet()))
                      .contains(keyA + " warning", keyB + " warning", keyA + " success")
                      .doesNotContain(keyB + " success"));
    }
  }

  /** The downward-API variables of replica {@code pod}'s sidecar. */
  private static Map<String, String> pod(String pod) {
    return Map.of(
        "JVM_SENTINEL_POD_NAMESPACE", "shop",
        "JVM_SENTINEL_POD_NAME", pod,
        "JVM_SENTINEL_CONTAINER_NAME", "app",
        "JVM_SENTINEL_NODE_NAME", "node-1",
        "REPLICA_TEST_ROUTING_KEY", "R0UT1NG");
  }

  private static Map<String, String> identity(String pod) {
    return Map.of(
        "target", APP, "namespace", "shop", "pod", pod, "container", "app", "node", "node-1");
  }

  /** The same file for both replicas: only the environment differs. */
  private static String sidecar(LabProcess lab, Receiver sinks, FakeAgent agent) {
    return """
        datadog:
          enabled: true
          address: %s
          step: 1s
        alerts:
          sinks:
            webhook:
              url: %s
            pagerduty:
              routingKeyEnv: REPLICA_TEST_ROUTING_KEY
              url: %s
            alertmanager:
              url: %s
        detection:
          snapshots:
            directory: ""
        targets:
          - name: %s
            jmx: %s
            pollInterval: 2s
            tags:
              app: %s
        """
        .formatted(
            agent.address(),
            sinks.url("/hook"),
            sinks.url("/pagerduty"),
            sinks.url("/am"),
            APP,
            lab.jmxHostPort(),
            APP);
  }

  private static Set<String> podsOf(List<DogStatsdLines.Line> lines, String metric) {
    return lines.stream()
        .filter(l -> l instanceof DogStatsdLines.Metric m && m.name().equals(metric))
        .flatMap(l -> ((DogStatsdLines.Metric) l).tags().stream())
        .filter(tag -> tag.startsWith("pod:"))
        .map(tag -> tag.substring("pod:".length()))
        .collect(Collectors.toSet());
  }

  private static boolean isStormEvent(DogStatsdLines.Line line) {
    return line instanceof DogStatsdLines.Event e && e.tags().contains("rule:ThreadStorm");
  }

  private static List<String> statuses(Receiver sinks, String dedupKey) {
    return bodies(sinks, "/hook").stream()
        .filter(b -> b.path("dedupKey").asText().equals(dedupKey))
        .map(b -> b.path("status").asText())
        .toList();
  }

  private static Set<String> pagerDuty(Receiver sinks, String action) {
    return bodies(sinks, "/pagerduty").stream()
        .filter(b -> b.path("event_action").asText().equals(action))
        .map(b -> b.path("dedup_key").asText())
        .collect(Collectors.toSet());
  }

  private static List<JsonNode> alertmanagerAlerts(Receiver sinks) {
    return bodies(sinks, "/am/api/v2/alerts").stream()
        .flatMap(array -> StreamSupport.stream(array.spliterator(), false))
        .filter(alert -> alert.path("labels").path("alertname").asText().equals("ThreadStorm"))
        .toList();
  }

  private static Set<String> alertmanagerPods(Receiver sinks) {
    return alertmanagerAlerts(sinks).stream()
        .map(alert -> alert.path("labels").path("pod").asText())
        .collect(Collectors.toSet());
  }

  private static JsonNode lastAlertmanagerAlert(Receiver sinks, String pod) {
    List<JsonNode> ofPod =
        alertmanagerAlerts(sinks).stream()
            .filter(alert -> alert.path("labels").path("pod").asText().equals(pod))
            .toList();
    assertThat(ofPod).isNotEmpty();
    return ofPod.get(ofPod.size() - 1);
  }

  private static List<JsonNode> bodies(Receiver sinks, String path) {
    return sinks.requests.stream()
        .filter(r -> r.path().equals(path))
        .map(Receiver.Request::body)
        .toList();
  }
}
