package io.jvmsentinel.daemon.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A local webhook sink: keeps every JSON notification POSTed to {@code /hook}, answers 204. */
public final class WebhookReceiver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();

  private WebhookReceiver(HttpServer server) {
    this.server = server;
  }

  public static WebhookReceiver start() throws IOException {
    WebhookReceiver receiver =
        new WebhookReceiver(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
    receiver.server.createContext(
        "/hook",
        exchange -> {
          receiver.received.add(
              JSON.readTree(
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.server.start();
    return receiver;
  }

  /** Every notification received so far, in arrival order (a live view). */
  public List<JsonNode> received() {
    return received;
  }

  /** The URL to configure as {@code alerts.sinks.webhook.url}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
