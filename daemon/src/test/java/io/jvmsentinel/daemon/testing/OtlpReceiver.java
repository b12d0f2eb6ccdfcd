package io.jvmsentinel.daemon.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local OTLP/HTTP metrics receiver: decodes every request with the official OTLP protobuf classes
 * (as an OpenTelemetry Collector's otlp receiver does), keeps it with its headers, and answers 200
 * with an empty {@code ExportMetricsServiceResponse}. Anything but a POST of {@code
 * application/x-protobuf} to {@code /v1/metrics} gets 4xx and is counted as rejected.
 */
public final class OtlpReceiver implements AutoCloseable {
  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<String> rejected = new CopyOnWriteArrayList<>();

  /** One decoded request and its request headers (names lower-cased). */
  public record Received(ExportMetricsServiceRequest request, Map<String, String> headers) {}

  private OtlpReceiver(HttpServer server) {
    this.server = server;
  }

  public static OtlpReceiver start() throws IOException {
    OtlpReceiver receiver =
        new OtlpReceiver(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
    receiver.server.createContext(
        "/v1/metrics",
        exchange -> {
          try (exchange) {
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (!"POST".equals(exchange.getRequestMethod())
                || !"application/x-protobuf".equals(type)) {
              receiver.rejected.add(exchange.getRequestMethod() + " " + type);
              exchange.sendResponseHeaders(415, -1);
              return;
            }
            ExportMetricsServiceRequest request;
            try {
              request = ExportMetricsServiceRequest.parseFrom(exchange.getRequestBody());
            } catch (IOException e) {
              receiver.rejected.add("undecodable: " + e.getMessage());
              exchange.sendResponseHeaders(400, -1);
              return;
            }
            Map<String, String> headers = new LinkedHashMap<>();
            exchange
                .getRequestHeaders()
                .forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.get(0)));
            receiver.received.add(new Received(request, headers));
            byte[] body = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
          }
        });
    receiver.server.start();
    return receiver;
  }

  /** The URL to configure as {@code otlp.endpoint}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics";
  }

  /** Every request received so far, in arrival order (a live view). */
  public List<Received> received() {
    return received;
  }

  /** Requests refused as not OTLP/HTTP protobuf. */
  public List<String> rejected() {
    return rejected;
  }

  /** The metric {@code name} of the latest request that has it. */
  public Optional<Metric> latest(String name) {
    for (int i = received.size() - 1; i >= 0; i--) {
      for (ResourceMetrics resource : received.get(i).request().getResourceMetricsList()) {
        for (ScopeMetrics scope : resource.getScopeMetricsList()) {
          for (Metric metric : scope.getMetricsList()) {
            if (metric.getName().equals(name)) {
              return Optional.of(metric);
            }
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The metric names of the latest request. */
  public List<String> latestNames() {
    if (received.isEmpty()) {
      return List.of();
    }
    return received.get(received.size() - 1).request().getResourceMetricsList().stream()
        .flatMap(r -> r.getScopeMetricsList().stream())
        .flatMap(s -> s.getMetricsList().stream())
        .map(Metric::getName)
        .toList();
  }

  /** Key-value attributes as a map of their string forms. */
  public static Map<String, String> attributes(List<KeyValue> attributes) {
    Map<String, String> out = new LinkedHashMap<>();
    for (KeyValue kv : attributes) {
      AnyValue v = kv.getValue();
      out.put(
          kv.getKey(),
          switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            default -> v.toString();
          });
    }
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
