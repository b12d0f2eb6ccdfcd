package io.jvmsentinel.daemon.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The dashboards and alert definitions under dashboards/ and alerts/, and the queries in them: the
 * one place the observability tests read them from.
 */
public final class ObservabilityFiles {
  static final ObjectMapper JSON = new ObjectMapper();
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** A Datadog metric query: {@code avg:jvm.memory.used{...}}. */
  private static final Pattern DATADOG_METRIC =
      Pattern.compile("\\b(?:avg|sum|min|max|count):([a-zA-Z_][a-zA-Z0-9_.]*)\\s*\\{");

  /** A Datadog service check query: {@code "jvm_sentinel.alert.ThreadStorm".over(...)}. */
  private static final Pattern SERVICE_CHECK = Pattern.compile("^\"([^\"]+)\"\\.over\\(");

  /** A fenced {@code promql} block of a Markdown file. */
  private static final Pattern PROMQL_BLOCK =
      Pattern.compile("^```promql\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL);

  private ObservabilityFiles() {}

  static Path root() {
    return Jdks.repoRoot();
  }

  /** The rules on exported metrics: the daemon's detection re-implemented in PromQL. */
  public static Path metricsRulesFile() {
    return root().resolve("alerts/prometheus/jvm-sentinel-metrics.rules.yml");
  }

  /** The rules that forward the daemon's own alerts. Load one of the two files, not both. */
  static Path daemonRulesFile() {
    return root().resolve("alerts/prometheus/jvm-sentinel-daemon.rules.yml");
  }

  static List<Path> rulesFiles() {
    return List.of(metricsRulesFile(), daemonRulesFile());
  }

  static List<Path> ruleTests() {
    return list(root().resolve("alerts/prometheus/tests"), ".yml");
  }

  static List<Path> grafanaDashboards() {
    return list(root().resolve("dashboards/grafana"), ".json");
  }

  static Path datadogDashboard() {
    return root().resolve("dashboards/datadog/jvm-sentinel-overview.json");
  }

  /** Every monitor of every file of alerts/datadog/ (one family per file), as one array. */
  static JsonNode datadogMonitors() {
    com.fasterxml.jackson.databind.node.ArrayNode all = JSON.createArrayNode();
    for (Path file : list(root().resolve("alerts/datadog"), ".json")) {
      read(file).forEach(all::add);
    }
    return all;
  }

  static JsonNode read(Path file) {
    try {
      return (file.toString().endsWith(".json") ? JSON : YAML).readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Every alerting or recording rule of both rules files. */
  static List<JsonNode> rules() {
    List<JsonNode> rules = new ArrayList<>();
    rulesFiles().forEach(file -> rules.addAll(rules(file)));
    return rules;
  }

  /** Every alerting or recording rule of one rules file. */
  static List<JsonNode> rules(Path file) {
    List<JsonNode> rules = new ArrayList<>();
    for (JsonNode group : read(file).path("groups")) {
      group.path("rules").forEach(rules::add);
    }
    return rules;
  }

  /**
   * Every PromQL expression of the Grafana dashboards (panel targets, also inside collapsed rows,
   * annotation queries and variable queries) and of the rules files, keyed by where it is, e.g.
   * {@code jvm-sentinel-overview.json: Code cache occupancy}.
   */
  static Map<String, String> promQlExpressions() {
    Map<String, String> expressions = new LinkedHashMap<>();
    for (Path dashboard : grafanaDashboards()) {
      JsonNode root = read(dashboard);
      String file = dashboard.getFileName().toString();
      List<JsonNode> panels = new ArrayList<>();
      collectPanels(root.path("panels"), panels);
      for (JsonNode panel : panels) {
        for (JsonNode target : panel.path("targets")) {
          if (target.hasNonNull("expr")) {
            expressions.put(
                file + ": " + panel.path("title").asText() + " " + target.path("refId").asText(),
                target.get("expr").asText());
          }
        }
      }
      for (JsonNode annotation : root.path("annotations").path("list")) {
        if (annotation.hasNonNull("expr")) {
          expressions.put(
              file + ": annotation " + annotation.path("name").asText(),
              annotation.get("expr").asText());
        }
      }
      for (JsonNode variable : root.path("templating").path("list")) {
        if (variable.path("type").asText().equals("query")) {
          JsonNode query = variable.path("query");
          expressions.put(
              file + ": variable " + variable.path("name").asText(),
              query.isTextual() ? query.asText() : query.path("query").asText());
        }
      }
    }
    for (Path file : rulesFiles()) {
      for (JsonNode rule : rules(file)) {
        String name = rule.has("alert") ? rule.get("alert").asText() : rule.path("record").asText();
        expressions.put(file.getFileName() + ": " + name, rule.path("expr").asText());
      }
    }
    return expressions;
  }

  /** Every non-row panel of a Grafana dashboard, including those inside collapsed rows. */
  static void collectPanels(JsonNode panels, List<JsonNode> into) {
    for (JsonNode panel : panels) {
      if (panel.path("type").asText().equals("row")) {
        collectPanels(panel.path("panels"), into);
      } else {
        into.add(panel);
      }
    }
  }

  /** Metric names selected by the Grafana dashboards and the Prometheus rules. */
  static Map<String, Set<String>> prometheusNames() {
    Map<String, Set<String>> whereUsed = new LinkedHashMap<>();
    promQlExpressions()
        .forEach(
            (where, expr) -> {
              for (String name : PromQlMetricNames.of(expr)) {
                whereUsed.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(where);
              }
            });
    return whereUsed;
  }

  /**
   * One chart of a dashboard: the row (Grafana) or group (Datadog) it sits in, its title and its
   * queries (PromQL for Grafana, Datadog metric queries for Datadog).
   */
  record Chart(String row, String title, List<String> queries) {}

  /** Every panel of a Grafana dashboard with the row it sits under (collapsed or not). */
  static List<Chart> grafanaCharts(Path dashboard) {
    List<Chart> charts = new ArrayList<>();
    String row = "";
    for (JsonNode panel : read(dashboard).path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        row = panel.path("title").asText();
        for (JsonNode inside : panel.path("panels")) {
          charts.add(grafanaChart(row, inside));
        }
      } else {
        charts.add(grafanaChart(row, panel));
      }
    }
    return charts;
  }

  private static Chart grafanaChart(String row, JsonNode panel) {
    List<String> queries = new ArrayList<>();
    panel.path("targets").forEach(t -> queries.add(t.path("expr").asText()));
    return new Chart(row, panel.path("title").asText(), queries);
  }

  /** Every widget of the Datadog dashboard with the group it sits in. */
  static List<Chart> datadogCharts() {
    List<Chart> charts = new ArrayList<>();
    for (JsonNode group : read(datadogDashboard()).path("widgets")) {
      String row = group.path("definition").path("title").asText();
      for (JsonNode widget : group.path("definition").path("widgets")) {
        Map<String, String> queries = new LinkedHashMap<>();
        collectQueries("", widget.path("definition"), queries);
        charts.add(
            new Chart(
                row,
                widget.path("definition").path("title").asText(),
                List.copyOf(queries.values())));
      }
    }
    return charts;
  }

  /** The Datadog metric names of one Datadog query. */
  static Set<String> datadogMetricNames(String query) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = DATADOG_METRIC.matcher(query);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** The monitors of one family file, e.g. {@code metrics} for monitors-metrics.json. */
  static JsonNode datadogMonitors(String family) {
    return read(root().resolve("alerts/datadog/monitors-" + family + ".json"));
  }

  /**
   * Every {@code promql} code block of the runbooks and docs, keyed by file and block number: the
   * queries a reader copies when an alert fires.
   */
  static Map<String, String> documentedPromQl() {
    Map<String, String> blocks = new LinkedHashMap<>();
    List<Path> files = new ArrayList<>(list(root().resolve("alerts/runbooks"), ".md"));
    files.addAll(list(root().resolve("docs"), ".md"));
    for (Path file : files) {
      Matcher m = PROMQL_BLOCK.matcher(readString(file));
      for (int n = 1; m.find(); n++) {
        blocks.put(root().relativize(file) + " promql block " + n, m.group(1));
      }
    }
    return blocks;
  }

  static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Every Datadog metric query string of the Datadog dashboard and monitors. */
  static Map<String, String> datadogQueries() {
    Map<String, String> queries = new LinkedHashMap<>();
    collectQueries("dashboard", read(datadogDashboard()), queries);
    for (JsonNode monitor : datadogMonitors()) {
      queries.put("monitor " + monitor.path("name").asText(), monitor.path("query").asText());
    }
    return queries;
  }

  private static void collectQueries(String where, JsonNode node, Map<String, String> into) {
    if (node.isObject()) {
      String here = node.has("title") ? node.get("title").asText() : where;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (field.getKey().equals("query") && field.getValue().isTextual()) {
          into.put(here + " #" + into.size(), field.getValue().asText());
        } else {
          collectQueries(here, field.getValue(), into);
        }
      }
    } else if (node.isArray()) {
      node.forEach(child -> collectQueries(where, child, into));
    }
  }

  /** Datadog metric names (Micrometer dot names) used in the Datadog dashboard and monitors. */
  static Map<String, Set<String>> datadogMetricNames() {
    Map<String, Set<String>> whereUsed = new LinkedHashMap<>();
    datadogQueries()
        .forEach(
            (where, query) -> {
              for (String name : datadogMetricNames(query)) {
                whereUsed.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(where);
              }
            });
    return whereUsed;
  }

  /** Names of the service checks the Datadog monitors watch. */
  static Set<String> datadogServiceChecks() {
    Set<String> checks = new LinkedHashSet<>();
    for (JsonNode monitor : datadogMonitors()) {
      if (monitor.path("type").asText().equals("service check")) {
        Matcher m = SERVICE_CHECK.matcher(monitor.path("query").asText());
        if (!m.find()) {
          throw new IllegalStateException("unreadable service check query: " + monitor);
        }
        checks.add(m.group(1));
      }
    }
    return checks;
  }

  private static List<Path> list(Path dir, String suffix) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
