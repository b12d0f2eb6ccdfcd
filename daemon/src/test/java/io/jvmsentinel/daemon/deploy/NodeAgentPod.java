package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.SentinelConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the node agent's DaemonSet must be, whether from deploy/kubernetes or the Helm chart: the
 * node's processes, root with exactly the capabilities attach and the agent files need, probes on
 * /health, the node name, scrape annotations, and a configuration that discovers local JVMs.
 */
final class NodeAgentPod {
  static final List<String> CAPABILITIES =
      List.of("SYS_PTRACE", "DAC_OVERRIDE", "KILL", "CHOWN", "FOWNER");

  private NodeAgentPod() {}

  /** Checks the DaemonSet and returns the daemon's configuration text (its ConfigMap key). */
  static String check(JsonNode daemonSet, JsonNode configMap) {
    JsonNode template = daemonSet.at("/spec/template");
    JsonNode pod = template.path("spec");
    assertThat(pod.path("hostPID").asBoolean(false)).as("hostPID").isTrue();
    assertThat(pod.path("hostNetwork").asBoolean(false)).as("hostNetwork").isFalse();
    assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
    JsonNode annotations = template.at("/metadata/annotations");
    assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
    assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo("9404");

    JsonNode daemon = DeployFiles.byName(pod.path("containers"), "jvm-sentinel").orElseThrow();
    JsonNode security = daemon.path("securityContext");
    assertThat(security.path("runAsUser").asInt(-1)).isZero();
    assertThat(security.path("privileged").asBoolean(true)).isFalse();
    assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
    assertThat(security.path("readOnlyRootFilesystem").asBoolean(false)).isTrue();
    assertThat(texts(security.at("/capabilities/drop"))).containsExactly("ALL");
    assertThat(texts(security.at("/capabilities/add")))
        .containsExactlyInAnyOrderElementsOf(CAPABILITIES);
    for (String probe : List.of("readinessProbe", "livenessProbe")) {
      assertThat(daemon.at("/" + probe + "/httpGet/path").asText()).as(probe).isEqualTo("/health");
    }
    for (String section : List.of("requests", "limits")) {
      assertThat(daemon.at("/resources/" + section + "/memory").asText()).isNotEmpty();
      assertThat(daemon.at("/resources/" + section + "/cpu").asText()).isNotEmpty();
    }
    JsonNode node = DeployFiles.byName(daemon.path("env"), "NODE_NAME").orElseThrow();
    assertThat(node.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("spec.nodeName");
    Optional<JsonNode> tmp =
        DeployFiles.byName(pod.path("volumes"), "tmp").filter(v -> v.has("emptyDir"));
    assertThat(tmp).as("/tmp is an emptyDir").isPresent();

    String config =
        DeployFiles.byName(daemon.path("env"), "JVM_SENTINEL_CONFIG")
            .orElseThrow()
            .path("value")
            .asText();
    assertThat(config).startsWith("/etc/jvm-sentinel/");
    String key = Path.of(config).getFileName().toString();
    assertThat(configMap.at("/data").has(key)).as("ConfigMap key " + key).isTrue();
    return configMap.at("/data").get(key).asText();
  }

  /** The loaded configuration discovers local JVMs, never this daemon's kind or the JDK tools. */
  static void checkConfig(SentinelConfig config) {
    assertThat(config.targets()).isEmpty();
    LocalDiscoveryConfig local = config.localDiscovery().orElseThrow();
    assertThat(local.jmxAgent()).isEqualTo(LocalDiscoveryConfig.JmxAgent.AUTO);
    assertThat(local.watches("com.example.Orders", "com.example.Orders", Optional.of("app")))
        .isTrue();
    assertThat(
            local.watches(
                "/app/jvm-sentinel.jar", "/app/jvm-sentinel.jar run", Optional.of("root")))
        .isFalse();
    assertThat(
            local.watches(
                "sun.tools.jcmd.JCmd", "sun.tools.jcmd.JCmd 1 VM.flags", Optional.empty()))
        .isFalse();
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(n -> texts.add(n.asText()));
    return texts;
  }
}
