package io.jvmsentinel.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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

  /**
   * Polls {@code /api/v1/alerts} every 250 ms until an alert of {@code rule} fires (on {@code
   * target}, or on any target when empty); its {@code since}, or empty after {@code timeout}.
   */
  Optional<Instant> awaitFiring(
      BenchContext context, String rule, Optional<String> target, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ObjectMapper json = new ObjectMapper();
    while (System.nanoTime() < deadline) {
      Optional<String> body =
          context
              .get(baseUrl + "/api/v1/alerts")
              .filter(r -> r.statusCode() == 200)
              .map(r -> r.body());
      if (body.isPresent()) {
        for (JsonNode alert : json.readTree(body.get()).path("alerts")) {
          if (alert.path("alert").asText().equals(rule)
              && target.map(t -> alert.path("target").asText().equals(t)).orElse(true)
              && alert.path("state").asText().equals("firing")) {
            return Optional.of(Instant.parse(alert.path("since").asText()));
          }
        }
      }
      Thread.sleep(250);
    }
    return Optional.empty();
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
