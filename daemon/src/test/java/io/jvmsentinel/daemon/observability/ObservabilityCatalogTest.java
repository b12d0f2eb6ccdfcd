package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.jvmsentinel.daemon.catalog.Catalog;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  void everyDetectionRuleHasAPrometheusAlertADatadogServiceCheckAMetricMonitorAndARunbook() {
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
    Set<String> metricMonitors = new java.util.HashSet<>();
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors("metrics")) {
      if (monitor.path("type").asText().equals("query alert")) {
        monitor.path("tags").forEach(t -> metricMonitors.add(t.asText()));
      }
    }
    assertThat(metricMonitors)
        .as("`rule:` tags of the Datadog metric monitors (monitors-metrics.json)")
        .containsAll(ruleIds.stream().map(id -> "rule:" + id).toList());
    String runbookIndex =
        ObservabilityFiles.readString(
            ObservabilityFiles.root().resolve("alerts/runbooks/README.md"));
    for (String id : ruleIds) {
      assertThat(ObservabilityFiles.root().resolve("alerts/runbooks/" + id + ".md"))
          .as(id + " runbook")
          .isRegularFile();
      assertThat(runbookIndex)
          .as("alerts/runbooks/README.md lists " + id)
          .contains("| " + id + " |");
    }
  }

  /**
   * A Datadog metric monitor that pages on a state held over its window ({@code max(last_2m):... <
   * 1}) holds it at least as long as the Prometheus alert of the same rule on the same metric holds
   * its expression ({@code for}): a gauge that lags the state it shows (target_up reads 0 until the
   * next reconnect attempt) must not page in Datadog where Prometheus stays silent.
   */
  @Test
  void datadogStateMonitorsHoldTheirStateAsLongAsThePrometheusAlerts() {
    Pattern stateWindow = Pattern.compile("^(?:max|min)\\(last_(\\d+)([mh])\\):");
    int compared = 0;
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors("metrics")) {
      String query = monitor.path("query").asText();
      Matcher window = stateWindow.matcher(query);
      if (!window.find()) {
        continue;
      }
      Duration monitorWindow =
          Duration.ofMinutes(
              Long.parseLong(window.group(1)) * (window.group(2).equals("h") ? 60 : 1));
      String rule = ruleTag(monitor);
      Set<String> metrics =
          ObservabilityFiles.datadogMetricNames(query).stream()
              .map(name -> name.replace('.', '_'))
              .collect(Collectors.toSet());
      List<JsonNode> alerts =
          ObservabilityFiles.rules().stream()
              .filter(r -> r.path("labels").path("rule").asText().equals(rule))
              .filter(
                  r ->
                      PromQlMetricNames.of(r.path("expr").asText()).stream()
                          .anyMatch(name -> metrics.stream().anyMatch(name::startsWith)))
              .toList();
      assertThat(alerts).as("the Prometheus alert of " + rule + " on " + metrics).isNotEmpty();
      for (JsonNode alert : alerts) {
        Duration held = promDuration(alert.path("for").asText("0s"));
        assertThat(monitorWindow)
            .as(monitor.path("name").asText() + " against " + alert.path("alert").asText())
            .isGreaterThanOrEqualTo(held);
        compared++;
      }
    }
    assertThat(compared).as("state monitors compared").isGreaterThanOrEqualTo(4);
  }

  /**
   * A metric monitor's name and message name only tags it groups by ({@code {{class.name}}} needs
   * {@code by {target,class}}): any other variable is left empty in the page.
   */
  @Test
  void datadogMetricMonitorsNameOnlyTheTagsTheyGroupBy() {
    Pattern groups = Pattern.compile("by \\{([^}]*)}");
    Pattern variable = Pattern.compile("\\{\\{([a-z_]+)\\.name}}");
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors("metrics")) {
      Matcher by = groups.matcher(monitor.path("query").asText());
      Set<String> grouped = by.find() ? Set.of(by.group(1).replace(" ", "").split(",")) : Set.of();
      Matcher used =
          variable.matcher(monitor.path("name").asText() + monitor.path("message").asText());
      while (used.find()) {
        assertThat(grouped)
            .as(monitor.path("name").asText() + " names {{" + used.group(1) + ".name}}")
            .contains(used.group(1));
      }
    }
  }

  /** A Prometheus duration of seconds, minutes and hours, e.g. {@code 90s} or {@code 1m30s}. */
  private static Duration promDuration(String text) {
    Matcher part = Pattern.compile("(\\d+)([smh])").matcher(text);
    Duration total = Duration.ZERO;
    while (part.find()) {
      long n = Long.parseLong(part.group(1));
      total =
          total.plus(
              switch (part.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
    }
    return total;
  }

  private static String ruleTag(JsonNode monitor) {
    for (JsonNode tag : monitor.path("tags")) {
      if (tag.asText().startsWith("rule:")) {
        return tag.asText().substring("rule:".length());
      }
    }
    throw new AssertionError("no rule: tag on " + monitor.path("name").asText());
  }

  /**
   * An SRE paged by a rule finds its signal on either dashboard: each meter RuleSignals names for
   * the rule is charted by a Grafana panel and by a Datadog widget.
   */
  @Test
  void everyDetectionRuleHasItsSignalChartedOnBothDashboards() {
    assertThat(RuleSignals.BY_RULE.keySet())
        .as("rules in RuleSignals (name the meters that show a new rule's signal there)")
        .containsExactlyInAnyOrderElementsOf(Rules.all().stream().map(AlertRule::id).toList());
    Set<MeterDefinition> grafana = grafanaMeters().keySet();
    Set<MeterDefinition> datadog = datadogMeters().keySet();
    Map<String, List<String>> missing = new TreeMap<>();
    RuleSignals.BY_RULE.forEach(
        (rule, meters) -> {
          for (MeterDefinition meter : meters) {
            if (!grafana.contains(meter)) {
              missing.computeIfAbsent(rule, r -> new ArrayList<>()).add("Grafana: " + meter);
            }
            if (!datadog.contains(meter)) {
              missing.computeIfAbsent(rule, r -> new ArrayList<>()).add("Datadog: " + meter);
            }
          }
        });
    assertThat(missing).as("rule signals no panel or widget charts").isEmpty();
  }

  /**
   * Each rule's runbook says where its signal is on the dashboards: an "On the dashboards"
   * paragraph whose quoted titles are Grafana panels (and the start of a Datadog widget's title),
   * one of them charting a meter RuleSignals names for the rule. A renamed panel fails here instead
   * of leaving the on-call looking for it.
   */
  @Test
  void everyRunbookNamesPanelsThatChartItsRulesSignal() {
    List<ObservabilityFiles.Chart> grafana = new ArrayList<>();
    ObservabilityFiles.grafanaDashboards()
        .forEach(f -> grafana.addAll(ObservabilityFiles.grafanaCharts(f)));
    Set<String> datadogTitles =
        ObservabilityFiles.datadogCharts().stream()
            .map(ObservabilityFiles.Chart::title)
            .collect(Collectors.toSet());
    Map<MeterDefinition, Set<Place>> charted = grafanaMeters();
    List<String> problems = new ArrayList<>();
    for (String rule : RuleSignals.BY_RULE.keySet()) {
      String runbook =
          ObservabilityFiles.readString(
              ObservabilityFiles.root().resolve("alerts/runbooks/" + rule + ".md"));
      int start = runbook.indexOf("On the dashboards");
      if (start < 0) {
        problems.add(rule + ".md has no \"On the dashboards\" paragraph");
        continue;
      }
      int end = runbook.indexOf("\n\n", start);
      String paragraph = runbook.substring(start, end < 0 ? runbook.length() : end);
      java.util.regex.Matcher quoted =
          java.util.regex.Pattern.compile("\"([^\"]+)\"")
              .matcher(paragraph.replaceAll("\\s+", " "));
      Set<String> titles = new java.util.LinkedHashSet<>();
      while (quoted.find()) {
        titles.add(quoted.group(1));
      }
      for (String title : titles) {
        if (grafana.stream().noneMatch(c -> c.title().equals(title))) {
          problems.add(rule + ".md names \"" + title + "\", no Grafana panel");
        }
        if (datadogTitles.stream().noneMatch(t -> t.startsWith(title))) {
          problems.add(rule + ".md names \"" + title + "\", no Datadog widget");
        }
      }
      boolean showsSignal =
          RuleSignals.BY_RULE.get(rule).stream()
              .flatMap(m -> charted.getOrDefault(m, Set.of()).stream())
              .anyMatch(place -> titles.contains(place.chart()));
      if (!showsSignal) {
        problems.add(rule + ".md names no panel charting " + RuleSignals.BY_RULE.get(rule));
      }
    }
    assertThat(problems).isEmpty();
  }

  /**
   * docs/dashboards.md promises "the rows match": a meter charted in a Grafana row is charted in
   * the Datadog group of the same title, and back, except where only one backend has the data.
   */
  @Test
  void grafanaAndDatadogChartTheSameMetersInTheSameRows() {
    Map<String, Set<MeterDefinition>> grafana = byRow(grafanaMeters());
    Map<String, Set<MeterDefinition>> datadog = byRow(datadogMeters());
    List<String> grafanaRows =
        ObservabilityFiles.grafanaCharts(ObservabilityFiles.grafanaDashboards().get(0)).stream()
            .map(ObservabilityFiles.Chart::row)
            .distinct()
            .toList();
    List<String> datadogRows =
        ObservabilityFiles.datadogCharts().stream()
            .map(ObservabilityFiles.Chart::row)
            .distinct()
            .toList();
    assertThat(datadogRows).as("Datadog groups, in order").isEqualTo(grafanaRows);
    List<String> differences = new ArrayList<>();
    for (String row : grafanaRows) {
      Set<MeterDefinition> onlyGrafana = new java.util.LinkedHashSet<>(grafana.get(row));
      onlyGrafana.removeAll(datadog.getOrDefault(row, Set.of()));
      onlyGrafana.removeAll(ONLY_ON_ONE_BACKEND.keySet());
      onlyGrafana.forEach(m -> differences.add(row + ": " + m.meterName() + " only in Grafana"));
      Set<MeterDefinition> onlyDatadog = new java.util.LinkedHashSet<>(datadog.get(row));
      onlyDatadog.removeAll(grafana.getOrDefault(row, Set.of()));
      onlyDatadog.removeAll(ONLY_ON_ONE_BACKEND.keySet());
      onlyDatadog.forEach(m -> differences.add(row + ": " + m.meterName() + " only in Datadog"));
    }
    assertThat(differences).isEmpty();
  }

  /**
   * Every meter the daemon exports is charted on the overview dashboards, or docs/dashboards.md
   * says where to look at it instead (its "Not on the overview" table): a new meter needs one or
   * the other, and a meter listed there must not also be charted.
   */
  @Test
  void everyExportedMeterIsChartedOrDocumentedAsNotOnTheOverview() {
    Set<MeterDefinition> charted = new java.util.HashSet<>(grafanaMeters().keySet());
    charted.addAll(datadogMeters().keySet());
    Map<String, MeterDefinition> byPrometheusName = new LinkedHashMap<>();
    Catalog.everyMeter().forEach(m -> byPrometheusName.put(CatalogNames.prometheusName(m), m));
    Set<String> listed = notOnTheOverview();
    assertThat(byPrometheusName.keySet())
        .as("names in the \"Not on the overview\" table of docs/dashboards.md")
        .containsAll(listed);
    List<String> neither = new ArrayList<>();
    List<String> both = new ArrayList<>();
    byPrometheusName.forEach(
        (name, meter) -> {
          boolean isListed = listed.contains(name);
          if (charted.contains(meter) == isListed) {
            (isListed ? both : neither).add(name);
          }
        });
    assertThat(neither)
        .as("meters neither charted nor listed as not on the overview (docs/dashboards.md)")
        .isEmpty();
    assertThat(both).as("meters listed as not on the overview but charted").isEmpty();
  }

  @Test
  void dashboardsDocDescribesEveryPrometheusAlert() {
    String doc = ObservabilityFiles.readString(ObservabilityFiles.root().resolve(DASHBOARDS_DOC));
    List<String> undocumented = new ArrayList<>();
    for (JsonNode rule : ObservabilityFiles.rules()) {
      String alert = rule.path("alert").asText();
      if (!doc.contains("| `" + alert + "` |")) {
        undocumented.add(alert);
      }
    }
    assertThat(undocumented).as("alerts without a row in the table of " + DASHBOARDS_DOC).isEmpty();
  }

  /**
   * The daemon-health group is in both Prometheus files; a Datadog user gets the same watch: every
   * daemon meter a health rule reads is read by a monitor of monitors-health.json.
   */
  @Test
  void datadogHealthMonitorsWatchWhatThePrometheusHealthRulesWatch() {
    Map<String, MeterDefinition> series = CatalogNames.prometheusSeries();
    Set<MeterDefinition> watched = new java.util.LinkedHashSet<>();
    for (JsonNode group :
        ObservabilityFiles.read(ObservabilityFiles.daemonRulesFile()).path("groups")) {
      if (group.path("name").asText().equals("jvm-sentinel-daemon-health")) {
        for (JsonNode rule : group.path("rules")) {
          for (String name : PromQlMetricNames.of(rule.path("expr").asText())) {
            if (series.containsKey(name)) {
              watched.add(series.get(name));
            }
          }
        }
      }
    }
    assertThat(watched).as("daemon meters the Prometheus health rules read").isNotEmpty();
    Map<String, MeterDefinition> sent = CatalogNames.datadogMetrics();
    Set<MeterDefinition> monitored = new java.util.HashSet<>();
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors("health")) {
      ObservabilityFiles.datadogMetricNames(monitor.path("query").asText()).stream()
          .filter(sent::containsKey)
          .forEach(name -> monitored.add(sent.get(name)));
    }
    assertThat(monitored).as("meters monitors-health.json reads").containsAll(watched);
  }

  /** The PromQL a runbook or doc tells a reader to run names only exported metrics. */
  @Test
  void promQlInRunbooksAndDocsNamesOnlyExportedMetrics() {
    Map<String, String> blocks = ObservabilityFiles.documentedPromQl();
    assertThat(blocks).as("promql blocks in alerts/runbooks and docs").hasSizeGreaterThan(5);
    Set<String> exported = CatalogNames.prometheusSeries().keySet();
    Map<String, Set<String>> unknown = new TreeMap<>();
    blocks.forEach(
        (where, block) -> {
          for (String name : PromQlMetricNames.of(block)) {
            if (!exported.contains(name) && !CatalogNames.PROMETHEUS_SCRAPE_SERIES.contains(name)) {
              unknown.computeIfAbsent(name, n -> new java.util.LinkedHashSet<>()).add(where);
            }
          }
        });
    assertThat(unknown)
        .as("metrics the daemon does not export, and where they are named")
        .isEmpty();
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
          if (!onlyDaemonWide(PromQlMetricNames.of(expr), CatalogNames.prometheusSeries())) {
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
          if (!onlyDaemonWide(
              ObservabilityFiles.datadogMetricNames(query), CatalogNames.datadogMetrics())) {
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

  private static final String DASHBOARDS_DOC = "docs/dashboards.md";

  /** Meters one backend charts and the other cannot, and why. */
  private static final Map<MeterDefinition, String> ONLY_ON_ONE_BACKEND =
      Map.of(
          SentinelMetric.SENTINEL_DOGSTATSD_ERRORS,
          "Datadog only: what the DogStatsD export itself lost; a Prometheus user sends none");

  /**
   * Whether a query reads only meters of the daemon itself (or Prometheus' own scrape series),
   * which no target filter can select.
   */
  private static boolean onlyDaemonWide(Set<String> names, Map<String, MeterDefinition> catalog) {
    return !names.isEmpty()
        && names.stream()
            .allMatch(
                n ->
                    CatalogNames.PROMETHEUS_SCRAPE_SERIES.contains(n)
                        || (catalog.containsKey(n)
                            && CatalogNames.DAEMON_WIDE.contains(catalog.get(n))));
  }

  /** The Prometheus names in the "Not on the overview" table of docs/dashboards.md. */
  private static Set<String> notOnTheOverview() {
    String doc = ObservabilityFiles.readString(ObservabilityFiles.root().resolve(DASHBOARDS_DOC));
    int begin = doc.indexOf("<!-- not-charted:begin -->");
    int end = doc.indexOf("<!-- not-charted:end -->");
    assertThat(begin).as(DASHBOARDS_DOC + " has the not-charted markers").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    Set<String> names = new java.util.LinkedHashSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?m)^\\| `([a-z0-9_]+)`")
            .matcher(doc.substring(begin, end));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Where a meter is charted: a row (or group) and a panel (or widget) title. */
  private record Place(String row, String chart) {}

  /** The catalog meters the Grafana panels chart, with the row and panel charting each. */
  private static Map<MeterDefinition, Set<Place>> grafanaMeters() {
    List<ObservabilityFiles.Chart> charts = new ArrayList<>();
    ObservabilityFiles.grafanaDashboards()
        .forEach(f -> charts.addAll(ObservabilityFiles.grafanaCharts(f)));
    return chartedMeters(charts, PromQlMetricNames::of, CatalogNames.prometheusSeries());
  }

  /** The catalog meters the Datadog widgets chart, with the group and widget charting each. */
  private static Map<MeterDefinition, Set<Place>> datadogMeters() {
    return chartedMeters(
        ObservabilityFiles.datadogCharts(),
        ObservabilityFiles::datadogMetricNames,
        CatalogNames.datadogMetrics());
  }

  /**
   * The catalog meters some chart reads, given how to find metric names in a query and the
   * catalog's names in that backend; names that are no catalog name are left to the name checks.
   */
  private static Map<MeterDefinition, Set<Place>> chartedMeters(
      List<ObservabilityFiles.Chart> charts,
      java.util.function.Function<String, Set<String>> namesIn,
      Map<String, MeterDefinition> catalog) {
    Map<MeterDefinition, Set<Place>> charted = new LinkedHashMap<>();
    for (ObservabilityFiles.Chart chart : charts) {
      for (String query : chart.queries()) {
        for (String name : namesIn.apply(query)) {
          if (catalog.containsKey(name)) {
            charted
                .computeIfAbsent(catalog.get(name), m -> new java.util.LinkedHashSet<>())
                .add(new Place(chart.row(), chart.title()));
          }
        }
      }
    }
    return charted;
  }

  /** Per row, the meters charted in it. */
  private static Map<String, Set<MeterDefinition>> byRow(Map<MeterDefinition, Set<Place>> charted) {
    Map<String, Set<MeterDefinition>> rows = new LinkedHashMap<>();
    charted.forEach(
        (meter, places) ->
            places.forEach(
                place ->
                    rows.computeIfAbsent(place.row(), r -> new java.util.LinkedHashSet<>())
                        .add(meter)));
    return rows;
  }
}
