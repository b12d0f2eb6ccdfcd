package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.rules.Rules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Dashboards and alert definitions name only metrics the catalog exports, cover every detection
 * rule, and follow the conventions docs/dashboards.md promises. Fast: no daemon, no promtool
 * (DashboardMetricsIT checks the names against a real scrape, PromtoolIT runs promtool).
 */
class ObservabilityCatalogTest {
  private static final String RUNBOOKS =
      "https://github.com/jvm-sentinel/jvm-sentinel/blob/main/alerts/runbooks/";

  @Test
  void grafanaDashboardsAndPrometheusRulesNameOnlyExportedMetrics() {
    Map<String, Set<String>> used = ObservabilityFiles.prometheusNames();
    assertThat(used).as("metric names found in dashboards and rules").hasSizeGreaterThan(30);
    Map<String, Set<String>> unknown = new TreeMap<>(used);
    unknown.keySet().removeAll(CatalogNames.prometheusSeries().keySet());
    unknown.keySet().removeAll(CatalogNames.PROMETHEUS_SCRAPE_SERIES);
    assertThat(unknown)
        .as("metrics the daemon does not export (see docs/metrics.md), and where they are used")
        .isEmpty();
  }

  @Test
  void datadogDashboardAndMonitorsNameOnlyExportedMicrometerNames() {
    Map<String, Set<String>> used = ObservabilityFiles.datadogMetricNames();
    assertThat(used).as("metric names found in Datadog queries").hasSizeGreaterThan(20);
    Map<String, Set<String>> unknown = new TreeMap<>(used);
    unknown.keySet().removeAll(CatalogNames.datadogMetrics().keySet());
    assertThat(unknown)
        .as("Datadog metrics that are no Micrometer name of the catalog, and where they are used")
        .isEmpty();
  }

  @Test
  void everyDetectionRuleHasAPrometheusAlertADatadogServiceCheckAndAMonitor() {
    List<String> ruleIds = Rules.all().stream().map(AlertRule::id).toList();
    Set<String> mirrored =
        ObservabilityFiles.rules().stream()
            .map(r -> r.path("labels").path("rule").asText())
            .collect(Collectors.toSet());
    assertThat(mirrored).as("`rule` labels of the Prometheus alerts").containsAll(ruleIds);
    assertThat(ObservabilityFiles.datadogServiceChecks())
        .as("service checks the daemon sends, one per rule")
        .containsExactlyInAnyOrderElementsOf(
            ruleIds.stream().map(id -> "jvm_sentinel.alert." + id).toList());
  }

  @Test
  void prometheusAlertsCarrySeveritySummaryDescriptionAndARunbookThatExists() {
    Set<String> runbooks = runbookNames();
    for (JsonNode rule : ObservabilityFiles.rules()) {
      String name = rule.path("alert").asText();
      assertThat(name).as("only alerting rules here").isNotEmpty();
      assertThat(rule.path("labels").path("severity").asText())
          .as(name + " severity")
          .matches("warning|critical|\\{\\{ \\$labels.severity }}");
      assertThat(rule.path("annotations").path("summary").asText()).as(name).isNotBlank();
      assertThat(rule.path("annotations").path("description").asText()).as(name).isNotBlank();
      String runbook = rule.path("annotations").path("runbook_url").asText();
      assertThat(runbook).as(name + " runbook_url").startsWith(RUNBOOKS).endsWith(".md");
      assertThat(runbook.substring(RUNBOOKS.length(), runbook.length() - 3))
          .as(name + " runbook")
          .isIn(runbooks);
      String rulesLabel = rule.path("labels").path("rule").asText();
      if (runbooks.contains(rulesLabel)) {
        assertThat(runbook)
            .as(name + " links the runbook of its rule")
            .endsWith(rulesLabel + ".md");
      }
    }
  }

  @Test
  void datadogMonitorsLinkARunbookAndNotifySomeone() {
    Set<String> runbooks = runbookNames();
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors()) {
      String name = monitor.path("name").asText();
      assertThat(monitor.path("type").asText()).as(name).isIn("query alert", "service check");
      String message = monitor.path("message").asText();
      assertThat(message).as(name).contains(RUNBOOKS).contains("@");
      String runbook = message.substring(message.indexOf(RUNBOOKS) + RUNBOOKS.length());
      assertThat(runbook.substring(0, runbook.indexOf(".md"))).as(name).isIn(runbooks);
      assertThat(monitor.path("tags").toString()).as(name).contains("service:jvm-sentinel");
      assertThat(monitor.path("options").path("thresholds").path("critical").isNumber())
          .as(name + " critical threshold")
          .isTrue();
    }
  }

  @Test
  void grafanaDashboardIsImportableWithItsVariables() {
    for (Path file : ObservabilityFiles.grafanaDashboards()) {
      JsonNode dashboard = ObservabilityFiles.read(file);
      assertThat(dashboard.path("schemaVersion").asInt())
          .as(file + " schemaVersion")
          .isBetween(36, 41);
      assertThat(dashboard.path("__inputs").path(0).path("pluginId").asText())
          .isEqualTo("prometheus");
      assertThat(dashboard.path("uid").asText()).isNotBlank();
      Map<String, JsonNode> variables = new LinkedHashMap<>();
      dashboard
          .path("templating")
          .path("list")
          .forEach(v -> variables.put(v.path("name").asText(), v));
      assertThat(variables)
          .containsKeys("datasource", "job", "instance", "namespace", "pod", "target");
      assertThat(variables.get("datasource").path("query").asText()).isEqualTo("prometheus");
      for (String name : List.of("namespace", "pod", "target")) {
        // namespace and pod exist only when the user adds them as tags: ".*" must match "no label".
        assertThat(variables.get(name).path("allValue").asText()).as(name).isEqualTo(".*");
        assertThat(variables.get(name).path("includeAll").asBoolean()).as(name).isTrue();
      }
      assertThat(variables.get("target").path("definition").asText())
          .startsWith("label_values(jvm_sentinel_target_up")
          .endsWith(", target)");

      List<JsonNode> panels = new ArrayList<>();
      ObservabilityFiles.collectPanels(dashboard.path("panels"), panels);
      Set<String> titles = new java.util.HashSet<>();
      for (JsonNode panel : panels) {
        String title = panel.path("title").asText();
        assertThat(titles.add(title)).as("panel titles are unique: " + title).isTrue();
        assertThat(panel.path("datasource").path("uid").asText())
            .as(title)
            .isEqualTo("${datasource}");
        assertThat(panel.path("fieldConfig").path("defaults").path("unit").asText())
            .as(title + " unit")
            .isNotBlank();
        assertThat(panel.path("targets")).as(title + " queries").isNotEmpty();
        for (JsonNode target : panel.path("targets")) {
          assertThat(target.path("datasource").path("uid").asText())
              .as(title)
              .isEqualTo("${datasource}");
          String expr = target.path("expr").asText();
          assertThat(expr)
              .as(title + " filters by namespace and pod, and by the daemon's job and instance")
              .contains("$namespace", "$pod", "job=~\"$job\"", "instance=~\"$instance\"");
          if (!expr.contains("jvm_sentinel_notification")
              && !expr.contains("scrape_duration_seconds")) {
            assertThat(expr).as(title + " filters by target").contains("target=~\"$target\"");
          }
        }
      }
      for (JsonNode panel : panels) {
        assertThat(sortFieldsMissingAfterRename(panel))
            .as(panel.path("title").asText() + ": sortBy fields that no longer exist")
            .isEmpty();
      }
      Set<String> rows = new java.util.HashSet<>();
      dashboard
          .path("panels")
          .forEach(
              p -> {
                if (p.path("type").asText().equals("row")) {
                  rows.add(p.path("title").asText());
                }
              });
      assertThat(rows).contains("Status", "Code cache and JIT", "Threads", "GC", "TLS", "Daemon");
    }
  }

  @Test
  void datadogDashboardHasTheTargetVariableAndUsesItInEveryQuery() {
    JsonNode dashboard = ObservabilityFiles.read(ObservabilityFiles.datadogDashboard());
    assertThat(dashboard.path("layout_type").asText()).isEqualTo("ordered");
    assertThat(dashboard.path("template_variables").path(0).path("name").asText())
        .isEqualTo("target");
    Map<String, String> queries = new LinkedHashMap<>(ObservabilityFiles.datadogQueries());
    queries.keySet().removeIf(k -> k.startsWith("monitor "));
    queries.values().removeIf(q -> q.startsWith("tag:")); // the monitor list widget
    assertThat(queries).isNotEmpty();
    queries.forEach(
        (where, query) -> {
          if (!query.contains("jvm.sentinel.notifications")) {
            assertThat(query).as(where).contains("$target");
          }
        });
  }

  /**
   * The sortBy fields of a panel that its organize step renamed or excluded before the sort runs:
   * Grafana then sorts on nothing, silently.
   */
  private static List<String> sortFieldsMissingAfterRename(JsonNode panel) {
    Set<String> gone = new java.util.HashSet<>();
    List<String> missing = new ArrayList<>();
    for (JsonNode transformation : panel.path("transformations")) {
      JsonNode options = transformation.path("options");
      switch (transformation.path("id").asText()) {
        case "organize" -> {
          options.path("renameByName").fieldNames().forEachRemaining(gone::add);
          options
              .path("excludeByName")
              .properties()
              .forEach(
                  e -> {
                    if (e.getValue().asBoolean()) {
                      gone.add(e.getKey());
                    }
                  });
        }
        case "sortBy" -> {
          for (JsonNode sort : options.path("sort")) {
            if (gone.contains(sort.path("field").asText())) {
              missing.add(sort.path("field").asText());
            }
          }
        }
        default -> {}
      }
    }
    return missing;
  }

  /**
   * The runbooks links may name: one per detection rule, README for the generic alerts (the
   * runbooks themselves are written elsewhere).
   */
  private static Set<String> runbookNames() {
    Set<String> names = new java.util.HashSet<>(Rules.all().stream().map(AlertRule::id).toList());
    names.add("README");
    names.add("{{ $labels.alert }}"); // JvmSentinelAlertActive: the daemon rule's own runbook
    return names;
  }
}
