package io.jvmsentinel.daemon.observability;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The stock dashboards users already run, as committed fixtures of their queries (each names its
 * source): daemon/src/test/resources/stock-dashboards.
 */
final class StockDashboards {
  /** One panel of a stock Grafana dashboard: its row, title and PromQL queries. */
  record Panel(String row, String title, List<String> queries) {
    Set<String> metricNames() {
      Set<String> names = new LinkedHashSet<>();
      queries.forEach(q -> names.addAll(PromQlMetricNames.of(q)));
      return names;
    }
  }

  private StockDashboards() {}

  static Path grafanaJvmMicrometer() {
    return Jdks.repoRoot()
        .resolve("daemon/src/test/resources/stock-dashboards/grafana-4701-jvm-micrometer.yml");
  }

  static List<Panel> panels(Path fixture) {
    List<Panel> panels = new ArrayList<>();
    for (JsonNode panel : ObservabilityFiles.read(fixture).path("panels")) {
      List<String> queries = new ArrayList<>();
      panel.path("queries").forEach(q -> queries.add(q.asText()));
      panels.add(new Panel(panel.path("row").asText(), panel.path("title").asText(), queries));
    }
    return panels;
  }

  /** Metrics the watched application registers itself, which no outside observer can export. */
  static Set<String> applicationMetrics(Path fixture) {
    Set<String> names = new LinkedHashSet<>();
    ObservabilityFiles.read(fixture).path("application").fieldNames().forEachRemaining(names::add);
    return names;
  }
}
