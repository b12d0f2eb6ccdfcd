package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Prometheus rules are valid and behave as their unit tests say (which run each rate rule at
 * 15, 30 and 60 s scrape intervals), and every Grafana query is valid PromQL, all judged by the
 * real promtool of Prometheus 2 (Debian's) and of Prometheus 3 (built by .ci/install-test-deps):
 * range selectors became left-open in 3, which changes how many samples a window holds. A missing
 * promtool fails: never skipped.
 */
class PromtoolIT {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir Path dir;

  /** Prometheus major versions; each test finds its promtool itself, so a missing 3 fails alone. */
  static Stream<Integer> prometheusVersions() {
    return Stream.of(2, 3);
  }

  @ParameterizedTest
  @MethodSource("prometheusVersions")
  void rulesFilesPassPromtoolCheck(int prometheus) {
    List<String> command = new ArrayList<>(List.of("check", "rules"));
    ObservabilityFiles.rulesFiles().forEach(f -> command.add(f.toString()));
    Promtool.Result result = run(Promtool.of(prometheus), command);
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS").doesNotContain("FAILED");
  }

  @ParameterizedTest
  @MethodSource("prometheusVersions")
  void rulesUnitTestsPass(int prometheus) {
    List<String> command = new ArrayList<>(List.of("test", "rules"));
    List<Path> tests = ObservabilityFiles.ruleTests();
    assertThat(tests).as("alerts/prometheus/tests/*.yml").isNotEmpty();
    tests.forEach(t -> command.add(t.toString()));
    Promtool.Result result = run(Promtool.of(prometheus), command);
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).doesNotContain("FAILED");
  }

  /**
   * Grafana queries become recording rules (variables replaced by what Grafana would put there), so
   * promtool parses each one: a typo in a dashboard fails here, not in front of a user.
   */
  @ParameterizedTest
  @MethodSource("prometheusVersions")
  void everyGrafanaQueryIsValidPromQl(int prometheus) throws IOException {
    StringBuilder rules = new StringBuilder("groups:\n  - name: grafana-queries\n    rules:\n");
    int n = 0;
    for (Map.Entry<String, String> e : ObservabilityFiles.promQlExpressions().entrySet()) {
      if (!e.getKey().contains(".json: ") || e.getKey().contains(": variable ")) {
        continue; // rules are checked above; label_values() is Grafana syntax, not PromQL
      }
      String expr =
          e.getValue()
              .replace("$__rate_interval", "1m")
              .replace("$__interval", "1m")
              .replace("$datasource", "x")
              .replaceAll("\\$\\{?(namespace|pod|target|job|instance)}?", ".*");
      rules
          .append("      - record: grafana:query_")
          .append(n++)
          .append("\n        expr: ")
          .append(ObservabilityFiles.JSON.writeValueAsString(expr))
          .append("\n");
    }
    assertThat(n).as("Grafana queries").isGreaterThan(30);
    Path file = dir.resolve("grafana-queries.rules.yml");
    Files.writeString(file, rules);
    Promtool.Result result =
        run(Promtool.of(prometheus), List.of("check", "rules", file.toString()));
    assertThat(result.exitCode()).as(result.output() + "\n" + rules).isZero();
  }

  private static Promtool.Result run(Promtool promtool, List<String> args) {
    Promtool.Result result = promtool.run(args, Duration.ofSeconds(TIMEOUT_SECONDS));
    System.out.println(
        "$ " + promtool.path() + " " + String.join(" ", args) + "\n" + result.output());
    return result;
  }
}
