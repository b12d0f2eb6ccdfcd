package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.fail;

import io.jvmsentinel.daemon.testing.Jdks;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A promtool binary the rule tests run: Prometheus 2's (Debian's package) or Prometheus 3's (built
 * from the Go module proxy by .ci/install-test-deps). A missing one is a failure that says how to
 * install it, never a skip.
 */
public record Promtool(String version, Path path) {

  /** Where .ci/install-test-deps links the Prometheus 3 promtool it built. */
  static final String PROMETHEUS3_LINK = ".ci/tools/promtool3";

  static Promtool of(int prometheusVersion) {
    return prometheusVersion == 3 ? prometheus3() : prometheus2();
  }

  /** {@code -Dpromtool=...}, else promtool on the PATH. */
  static Promtool prometheus2() {
    String configured = configured("promtool");
    if (configured != null) {
      return new Promtool("2", Path.of(configured));
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "promtool");
      if (Files.isExecutable(candidate)) {
        return new Promtool("2", candidate);
      }
    }
    throw new AssertionError(
        "promtool not found on the PATH (nor -Dpromtool=<path>). The Prometheus rules and"
            + " dashboards cannot be checked without it. Install it with .ci/install-test-deps"
            + " (Debian: apt-get install prometheus).");
  }

  /** {@code -Dpromtool3=...}, else the one .ci/install-test-deps built. */
  public static Promtool prometheus3() {
    String configured = configured("promtool3");
    Path path =
        configured != null
            ? Path.of(configured)
            : Jdks.repoRoot().resolve(PROMETHEUS3_LINK).resolve("promtool");
    if (!Files.isExecutable(path)) {
      throw new AssertionError(
          "Prometheus 3 promtool not found at "
              + path
              + ". Run .ci/install-test-deps (it builds it with `go install"
              + " github.com/prometheus/prometheus/cmd/promtool@<v0.3xx version>` from the Go module"
              + " proxy, once per machine), or pass -Dpromtool3=<path>.");
    }
    return new Promtool("3", path);
  }

  private static String configured(String property) {
    String value = System.getProperty(property);
    return value == null || value.isBlank() || value.startsWith("${") ? null : value;
  }

  /** What one promtool run printed, and how it ended. */
  public record Result(int exitCode, String output) {}

  /** Runs promtool from the repository root; a run longer than {@code timeout} fails the test. */
  public Result run(List<String> args, Duration timeout) {
    List<String> command = new ArrayList<>();
    command.add(path.toString());
    command.addAll(args);
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
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        fail("promtool did not finish in " + timeout + ": " + command);
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      Files.delete(log);
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "Prometheus " + version + " promtool";
  }
}
