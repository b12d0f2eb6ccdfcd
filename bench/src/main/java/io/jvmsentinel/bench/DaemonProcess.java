package io.jvmsentinel.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A monitor process the benchmark started (the daemon or jmx_exporter), with its HTTP base. */
final class DaemonProcess implements AutoCloseable {
  final Process process;
  final String baseUrl;
  final Path dir;

  DaemonProcess(Process process, String baseUrl, Path dir) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.dir = dir;
  }

  long pid() {
    return process.pid();
  }

  String metricsUrl() {
    return baseUrl + "/metrics";
  }

  /** {@code /health} answers, then {@code /ready} says every target is connected. */
  void awaitReady(BenchContext context, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IOException("daemon exited early, see " + dir.resolve("daemon.log"));
      }
      if (context.get(baseUrl + "/ready").map(r -> r.statusCode() == 200).orElse(false)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        close();
        throw new IOException("daemon not ready in " + timeout + ", see " + dir);
      }
      Thread.sleep(200);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
