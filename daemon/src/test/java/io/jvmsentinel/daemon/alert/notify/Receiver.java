package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP receiver on 127.0.0.1 and a free port that records every request and answers as
 * scripted: a queue of responses, then 200.
 */
public final class Receiver implements AutoCloseable {
  /** One recorded request. */
  public record Request(
      String method, String path, Headers headers, JsonNode body, int answeredWith) {}

  /** What to answer; {@link #HANG} holds the request until the receiver closes. */
  record Answer(int status, String location) {
    static final Answer HANG = new Answer(-1, null);

    static Answer status(int status) {
      return new Answer(status, null);
    }
  }

  public final List<Request> requests = new CopyOnWriteArrayList<>();
  final Queue<Answer> script = new ConcurrentLinkedQueue<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final HttpServer server;

  public Receiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  public URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** The bodies of the requests answered with 2xx, in arrival order. */
  List<JsonNode> accepted() {
    return requests.stream().filter(r -> r.answeredWith() / 100 == 2).map(Request::body).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] bytes = exchange.getRequestBody().readAllBytes();
      Answer answer = script.isEmpty() ? Answer.status(200) : script.poll();
      JsonNode body = TestNotifications.json(new String(bytes, StandardCharsets.UTF_8));
      requests.add(
          new Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              exchange.getRequestHeaders(),
              body,
              answer.status()));
      if (answer == Answer.HANG) {
        closing.await(30, TimeUnit.SECONDS);
        return;
      }
      if (answer.location() != null) {
        exchange.getResponseHeaders().set("Location", answer.location());
      }
      byte[] response = ("{\"status\":" + answer.status() + "}").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer.status(), response.length);
      exchange.getResponseBody().write(response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
  }
}
