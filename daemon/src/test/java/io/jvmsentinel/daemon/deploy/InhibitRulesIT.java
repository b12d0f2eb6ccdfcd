package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.testing.AlertmanagerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * alerts/alertmanager/inhibit-rules.yml in a real Prometheus Alertmanager: the five alerts of one
 * code cache incident leave one active; the same symptom on another target is not muted.
 */
class InhibitRulesIT {
  private static final Path RULES =
      DeployFiles.repo().resolve("alerts/alertmanager/inhibit-rules.yml");

  @TempDir Path dir;

  @Test
  void oneCodeCacheIncidentLeavesOneActiveAlertPerTarget() throws Exception {
    String config =
        AlertmanagerProcess.CONFIG + Files.readString(RULES).replaceAll("(?m)^#.*\\n", "");
    try (AlertmanagerProcess alertmanager = AlertmanagerProcess.start(dir, config)) {
      ArrayNode alerts = DeployFiles.YAML.createArrayNode();
      for (String name :
          new String[] {
            "JvmJitCompilationDisabled",
            "JvmCodeCacheFull",
            "JvmCodeCacheNearFull",
            "JvmCodeCacheChurn",
            "JvmCompilerCpuHigh",
            "JvmDeoptimizationStorm"
          }) {
        alerts.add(alert(name, "orders"));
      }
      // The same symptom on another target of the same daemon stays active.
      alerts.add(alert("JvmCodeCacheNearFull", "billing"));
      alertmanager.post(alerts.toString());

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                Map<String, String> states = states(alertmanager);
                assertThat(states)
                    .containsEntry("JvmJitCompilationDisabled/orders", "active")
                    .containsEntry("JvmCodeCacheFull/orders", "suppressed")
                    .containsEntry("JvmCodeCacheNearFull/orders", "suppressed")
                    .containsEntry("JvmCodeCacheChurn/orders", "suppressed")
                    .containsEntry("JvmCompilerCpuHigh/orders", "suppressed")
                    .containsEntry("JvmDeoptimizationStorm/orders", "suppressed")
                    .containsEntry("JvmCodeCacheNearFull/billing", "active");
              });
    }
  }

  private static ObjectNode alert(String name, String target) {
    ObjectNode alert = DeployFiles.YAML.createObjectNode();
    ObjectNode labels = alert.putObject("labels");
    labels.put("alertname", name);
    labels.put("target", target);
    labels.put("instance", "10.0.0.7:9404");
    labels.put("job", "shop/orders-jvm-sentinel");
    labels.put("severity", name.equals("JvmCodeCacheNearFull") ? "warning" : "critical");
    alert.put("startsAt", Instant.now().minusSeconds(60).toString());
    alert.put("endsAt", Instant.now().plusSeconds(600).toString());
    return alert;
  }

  /** "alertname/target" to the state Alertmanager reports (active, suppressed). */
  private static Map<String, String> states(AlertmanagerProcess alertmanager) throws Exception {
    Map<String, String> states = new HashMap<>();
    JsonNode all = DeployFiles.YAML.readTree(alertmanager.get("/api/v2/alerts").body());
    for (JsonNode a : all) {
      states.put(
          a.at("/labels/alertname").asText() + "/" + a.at("/labels/target").asText(),
          a.at("/status/state").asText());
    }
    return states;
  }
}
