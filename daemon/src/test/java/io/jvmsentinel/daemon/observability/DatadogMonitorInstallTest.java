package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * alerts/datadog/install-monitors.py against a local stand-in for Datadog's monitor API that
 * records every call and keeps the monitors: run twice, it leaves one family, once.
 */
class DatadogMonitorInstallTest {
  private static final Path SCRIPT = Jdks.repoRoot().resolve("alerts/datadog/install-monitors.py");

  @TempDir Path dir;
  private HttpServer server;
  private final Map<Long, JsonNode> monitors = Collections.synchronizedMap(new TreeMap<>());
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong ids = new AtomicLong(1000);

  @BeforeEach
  void datadog() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/v1/monitor", this::handle);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void twoRunsLeaveOneFamilyScopedToTheServiceWithNoDuplicates() throws Exception {
    JsonNode family =
        ObservabilityFiles.read(
            Jdks.repoRoot().resolve("alerts/datadog/monitors-service-checks.json"));
    JsonNode health =
        ObservabilityFiles.read(Jdks.repoRoot().resolve("alerts/datadog/monitors-health.json"));
    int expected = family.size() + health.size();

    assertThat(install("--family", "service-checks", "--service", "orders", "--env", "prod"))
        .contains(expected + " created, 0 updated");
    assertThat(posts()).isEqualTo(expected);
    calls.clear();
    assertThat(install("--family", "service-checks", "--service", "orders", "--env", "prod"))
        .contains("0 created, " + expected + " updated");
    assertThat(posts()).isZero();
    assertThat(calls).filteredOn(c -> c.startsWith("PUT ")).hasSize(expected);

    assertThat(monitors).hasSize(expected);
    for (JsonNode monitor : monitors.values()) {
      String name = monitor.get("name").asText();
      assertThat(name).endsWith("[service:orders env:prod]");
      List<String> tags = new ArrayList<>();
      monitor.get("tags").forEach(t -> tags.add(t.asText()));
      assertThat(tags)
          .contains("service:orders", "env:prod")
          .doesNotContain("service:jvm-sentinel");
      String query = monitor.get("query").asText();
      assertThat(query).contains("env:prod").contains("service:orders").doesNotContain("{*}");
      assertThat(query).doesNotContain(".over(\"*\")");
    }
    // One family: no metric monitor mirrors the rules the service checks already page on.
    assertThat(monitors.values())
        .filteredOn(m -> m.get("type").asText().equals("query alert"))
        .hasSize(health.size());

    // Another service is another set of monitors; the first stays as it was.
    install("--family", "service-checks", "--service", "billing", "--env", "prod");
    assertThat(monitors).hasSize(2 * expected);
  }

  @Test
  void aTagThatDatadogWouldRejectIsRefusedBeforeAnyCall() throws Exception {
    Process p = process("--family", "metrics", "--service", "orders app", "--env", "prod");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isNotZero();
    assertThat(Files.readString(dir.resolve("out.txt"))).contains("is not a Datadog tag value");
    assertThat(calls).isEmpty();
  }

  private long posts() {
    return calls.stream().filter(c -> c.startsWith("POST ")).count();
  }

  private String install(String... args) throws Exception {
    Process p = process(args);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("install finished").isTrue();
    String out = Files.readString(dir.resolve("out.txt"));
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  private Process process(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("python3", SCRIPT.toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--api-url", "http://127.0.0.1:" + server.getAddress().getPort()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile());
    builder.environment().put("DD_API_KEY", "test-api-key");
    builder.environment().put("DD_APP_KEY", "test-app-key");
    return builder.start();
  }

  /** GET ?name= (substring search, as Datadog's), POST, PUT /id, DELETE /id. */
  private void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    calls.add(method + " " + exchange.getRequestURI());
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    if (!"test-api-key".equals(exchange.getRequestHeaders().getFirst("DD-API-KEY"))) {
      respond(exchange, 403, "{\"errors\":[\"Forbidden\"]}");
      return;
    }
    switch (method) {
      case "GET" -> {
        String name = "";
        String query = exchange.getRequestURI().getRawQuery();
        for (String pair : query == null ? new String[0] : query.split("&")) {
          if (pair.startsWith("name=")) {
            name = URLDecoder.decode(pair.substring(5), StandardCharsets.UTF_8);
          }
        }
        ArrayNode found = ObservabilityFiles.JSON.createArrayNode();
        for (JsonNode m : monitors.values()) {
          if (m.get("name").asText().contains(name)) {
            found.add(m);
          }
        }
        respond(exchange, 200, found.toString());
      }
      case "POST" -> {
        ObjectNode m = (ObjectNode) ObservabilityFiles.JSON.readTree(body);
        long id = ids.incrementAndGet();
        m.put("id", id);
        monitors.put(id, m);
        respond(exchange, 200, m.toString());
      }
      case "PUT", "DELETE" -> {
        long id = Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
        if (!monitors.containsKey(id)) {
          respond(exchange, 404, "{\"errors\":[\"Monitor not found\"]}");
        } else if (method.equals("DELETE")) {
          monitors.remove(id);
          respond(exchange, 200, "{\"deleted_monitor_id\":" + id + "}");
        } else {
          ObjectNode m = (ObjectNode) ObservabilityFiles.JSON.readTree(body);
          m.put("id", id);
          monitors.put(id, m);
          respond(exchange, 200, m.toString());
        }
      }
      default -> respond(exchange, 405, "{}");
    }
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
