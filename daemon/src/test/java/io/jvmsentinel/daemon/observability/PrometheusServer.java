package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;

/** A real Prometheus server (the Debian package), its data and log under a test directory. */
final class PrometheusServer {
  static final Path BINARY = Path.of("/usr/bin/prometheus");

  private PrometheusServer() {}

  /** Fails (never skips) when Prometheus is not installed. */
  static void assertInstalled() {
    assertThat(BINARY)
        .as("Prometheus (Debian package 'prometheus'): run .ci/install-test-deps")
        .isExecutable();
  }

  /** Starts Prometheus with {@code config} on loopback {@code port}; log: dir/prometheus.log. */
  static Process start(Path config, Path dir, int port) throws IOException {
    return new ProcessBuilder(
            BINARY.toString(),
            "--config.file=" + config,
            "--storage.tsdb.path=" + dir.resolve("prom-data"),
            "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("prometheus.log").toFile())
        .start();
  }
}
