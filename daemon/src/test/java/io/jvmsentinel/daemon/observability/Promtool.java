package io.jvmsentinel.daemon.observability;

import io.jvmsentinel.daemon.testing.Jdks;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A promtool binary the rule tests run: Prometheus 2's (Debian's package) or Prometheus 3's (built
 * from the Go module proxy by .ci/install-test-deps). A missing one is a failure that says how to
 * install it, never a skip.
 */
record Promtool(String version, Path path) {

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
  static Promtool prometheus3() {
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

  @Override
  public String toString() {
    return "Prometheus " + version + " promtool";
  }
}
