package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.config.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The two rules files page once per incident whichever one is loaded, and their windows hold enough
 * samples to fire at any common scrape interval. Fast: reads the files; PromtoolIT runs them.
 */
class PrometheusRulesFilesTest {
  /** Grafana Agent/Alloy and Grafana Cloud scrape every 60 s: the longest interval we support. */
  private static final Duration LONGEST_SCRAPE = Duration.ofSeconds(60);

  /**
   * rate() needs 2 samples; 4 keep one lost scrape or a left-open window (Prometheus 3) harmless.
   */
  private static final int SAMPLES_PER_WINDOW = 4;

  private static final Set<String> SCRAPE_INTERVALS = Set.of("15s", "30s", "60s");
  private static final String HEALTH_GROUP = "jvm-sentinel-daemon-health";
  // A range, or a subquery's range before its resolution ([5m:15s]).
  private static final Pattern RANGE = Pattern.compile("\\[([^\\]:]+)(?::[^\\]]*)?]");
  private static final Pattern WINDOWED_FUNCTION = Pattern.compile("\\b(rate|\\w+_over_time)\\(");

  @Test
  void bothFilesCarryTheSameDaemonHealthGroupSoEitherAloneWatchesTheDaemon() {
    JsonNode inMetrics = group(ObservabilityFiles.metricsRulesFile(), HEALTH_GROUP);
    JsonNode inDaemon = group(ObservabilityFiles.daemonRulesFile(), HEALTH_GROUP);
    assertThat(inMetrics).as(HEALTH_GROUP + " in the metrics rules").isNotNull();
    assertThat(inMetrics).as(HEALTH_GROUP + " in both files").isEqualTo(inDaemon);
    assertThat(alertNames(inMetrics)).contains("JvmSentinelDaemonDown", "JvmSentinelDaemonAbsent");
  }

  @Test
  void metricsFileNeverForwardsAndDaemonFileOnlyForwards() {
    for (JsonNode rule : ObservabilityFiles.rules(ObservabilityFiles.metricsRulesFile())) {
      assertThat(rule.path("expr").asText())
          .as(rule.path("alert").asText() + " in the metrics rules")
          .doesNotContain("jvm_sentinel_alert_active");
    }
    for (JsonNode group :
        ObservabilityFiles.read(ObservabilityFiles.daemonRulesFile()).path("groups")) {
      if (group.path("name").asText().equals(HEALTH_GROUP)) {
        continue;
      }
      for (JsonNode rule : group.path("rules")) {
        assertThat(rule.path("expr").asText())
            .as(rule.path("alert").asText() + " in the daemon rules forwards the daemon's alerts")
            .startsWith("jvm_sentinel_alert_active");
      }
    }
  }

  @Test
  void everyRangeHoldsFourSamplesAtA60SecondScrape() {
    Duration shortest = LONGEST_SCRAPE.multipliedBy(SAMPLES_PER_WINDOW);
    Map<String, String> tooShort = new TreeMap<>();
    ObservabilityFiles.promQlExpressions()
        .forEach(
            (where, expr) -> {
              Matcher m = RANGE.matcher(expr);
              while (m.find()) {
                String range = m.group(1);
                if (range.equals("$__rate_interval")) {
                  continue; // Grafana: max(4 x the data source's scrape interval, step + scrape)
                }
                if (Durations.parse(range).compareTo(shortest) < 0) {
                  tooShort.put(where, range);
                }
              }
            });
    assertThat(tooShort)
        .as("ranges shorter than %s (empty at a 60 s scrape), and where", shortest)
        .isEmpty();
  }

  @Test
  void everyWindowedRuleHasAPromtoolTestThatFiresAt15And30And60SecondScrapes() {
    Map<String, Set<String>> firesAt = firingIntervalsInRuleTests();
    Map<String, Set<String>> missing = new TreeMap<>();
    for (JsonNode rule : ObservabilityFiles.rules(ObservabilityFiles.metricsRulesFile())) {
      if (WINDOWED_FUNCTION.matcher(rule.path("expr").asText()).find()) {
        String alert = rule.path("alert").asText();
        Set<String> lacking = new LinkedHashSet<>(SCRAPE_INTERVALS);
        lacking.removeAll(firesAt.getOrDefault(alert, Set.of()));
        if (!lacking.isEmpty()) {
          missing.put(alert, lacking);
        }
      }
    }
    assertThat(firesAt).as("alerts tested firing in alerts/prometheus/tests").isNotEmpty();
    assertThat(missing)
        .as("rate and *_over_time rules without a promtool test firing at these intervals")
        .isEmpty();
  }

  /** Per alert name, the test intervals at which some promtool test expects it to fire. */
  private static Map<String, Set<String>> firingIntervalsInRuleTests() {
    Map<String, Set<String>> firesAt = new LinkedHashMap<>();
    for (Path file : ObservabilityFiles.ruleTests()) {
      for (JsonNode test : ObservabilityFiles.read(file).path("tests")) {
        String interval = test.path("interval").asText("1m");
        for (JsonNode check : test.path("alert_rule_test")) {
          if (!check.path("exp_alerts").isEmpty()) {
            firesAt
                .computeIfAbsent(check.path("alertname").asText(), a -> new LinkedHashSet<>())
                .add(interval);
          }
        }
      }
    }
    return firesAt;
  }

  private static JsonNode group(Path file, String name) {
    for (JsonNode group : ObservabilityFiles.read(file).path("groups")) {
      if (group.path("name").asText().equals(name)) {
        return group;
      }
    }
    return null;
  }

  private static List<String> alertNames(JsonNode group) {
    List<String> names = new ArrayList<>();
    group.path("rules").forEach(r -> names.add(r.path("alert").asText()));
    return names;
  }
}
