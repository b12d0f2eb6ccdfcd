package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus rules are valid and behave as their unit tests say, and every Grafana query is
 * valid PromQL, all judged by the real promtool. A missing promtool fails: never skipped.
 */
class PromtoolIT {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir Path dir;

  @Test
  void rulesFilePassesPromtoolCheck() {
    Result result = promtool("check", "rules", ObservabilityFiles.rulesFile().toString());
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void rulesUnitTestsPass() {
    List<String> command = new ArrayList<>(List.of("test", "rules"));
    List<Path> tests = ObservabilityFiles.ruleTests();
    assertThat(tests).as("alerts/prometheus/tests/*.yml").isNotEmpty();
    tests.forEach(t -> command.add(t.toString()));
    Result result = promtool(command.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).doesNotContain("FAILED");
  }

  /**
   * Grafana queries become recording rules (variables replaced by what Grafana would put there), so
   * promtool parses each one: a typo in a dashboard fails here, not in front of a user.
   */
  @Test
  void everyGrafanaQueryIsValidPromQl() throws IOException {
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
              .replaceAll("\\$\\{?(namespace|pod|target)}?", ".*");
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
    Result result = promtool("check", "rules", file.toString());
    assertThat(result.exitCode()).as(result.output() + "\n" + rules).isZero();
  }

  private record Result(int exitCode, String output) {}

  private static Result promtool(String... args) {
    List<String> command = new ArrayList<>();
    command.add(promtoolPath());
    command.addAll(List.of(args));
    try {
      // Output goes to a file: a full pipe can never block promtool, and the timeout holds.
      Path log = Files.createTempFile("promtool", ".log");
      Process process =
          new ProcessBuilder(command)
              .directory(Jdks.repoRoot().toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("promtool did not finish in " + TIMEOUT_SECONDS + " s: " + command);
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      Files.delete(log);
      System.out.println("$ " + String.join(" ", command) + "\n" + output);
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code -Dpromtool=...}, else promtool on the PATH; missing is a failure, with the fix. */
  private static String promtoolPath() {
    String configured = System.getProperty("promtool");
    if (configured != null && !configured.isBlank() && !configured.startsWith("${")) {
      return configured;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, "promtool");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new AssertionError(
        "promtool not found on the PATH (nor -Dpromtool=<path>). The Prometheus rules and"
            + " dashboards cannot be checked without it. Install it with .ci/install-test-deps"
            + " (Debian: apt-get install prometheus), or download a Prometheus release from"
            + " https://prometheus.io/download/ and put its promtool on the PATH.");
  }
}
