package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every JVM metric a stock dashboard queries is one the daemon exports: only metrics the watched
 * application registers itself (its web server, its logger) may be missing, and the fixture names
 * each. StockDashboardsIT shows the panels filling against a real target.
 */
class StockDashboardsTest {

  @Test
  void everyJvmMetricOfGrafanasJvmMicrometerDashboardIsExported() {
    Path fixture = StockDashboards.grafanaJvmMicrometer();
    var panels = StockDashboards.panels(fixture);
    assertThat(panels).as("panels of dashboard 4701").hasSizeGreaterThanOrEqualTo(25);
    Set<String> application = StockDashboards.applicationMetrics(fixture);
    Set<String> exported = CatalogNames.prometheusSeries().keySet();
    assertThat(application)
        .as("application-level metrics are not ours")
        .doesNotContainAnyElementsOf(exported);

    Map<String, Set<String>> missing = new TreeMap<>();
    for (StockDashboards.Panel panel : panels) {
      for (String name : panel.metricNames()) {
        if (!exported.contains(name) && !application.contains(name)) {
          missing.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(panel.title());
        }
      }
    }
    assertThat(missing)
        .as("JVM metrics the stock dashboard queries that the daemon does not export")
        .isEmpty();
  }
}
