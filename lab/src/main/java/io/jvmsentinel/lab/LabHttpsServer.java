package io.jvmsentinel.lab;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTPS service on 127.0.0.1 (free port) for the TLS scenarios. {@code /close} answers with
 * {@code Connection: close}, as the service of JDK-8246039 did, so every request needs a new TLS
 * connection; {@code /keep-alive} lets clients reuse connections.
 *
 * <p>Handlers run on a small fixed pool of daemon threads: the server itself must not start threads
 * per request, or it would blur the thread counts the scenarios are about. Its {@code SSLEngine}
 * has no handshake listeners, so the server side starts no notify threads either.
 */
final class LabHttpsServer implements AutoCloseable {

  static final String CLOSE_PATH = "/close";
  static final String KEEP_ALIVE_PATH = "/keep-alive";
  private static final byte[] BODY = "ok\n".getBytes(StandardCharsets.US_ASCII);
  private static final int HANDLER_THREADS = 4;

  private final HttpsServer server;
  private final ExecutorService executor;

  private LabHttpsServer(HttpsServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  static LabHttpsServer start() {
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            HANDLER_THREADS,
            task -> {
              Thread thread = new Thread(task, "lab-https-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    try {
      HttpsServer server =
          HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      server.setHttpsConfigurator(new HttpsConfigurator(LabTls.serverContext()));
      server.createContext(CLOSE_PATH, exchange -> respond(exchange, true));
      server.createContext(KEEP_ALIVE_PATH, exchange -> respond(exchange, false));
      server.setExecutor(executor);
      server.start();
      return new LabHttpsServer(server, executor);
    } catch (IOException e) {
      executor.shutdownNow();
      throw new IllegalStateException("cannot start the lab HTTPS server", e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** {@code https://127.0.0.1:<port><path>}; the leaf certificate names 127.0.0.1 too. */
  String url(String path) {
    return "https://127.0.0.1:" + port() + path;
  }

  private static void respond(HttpExchange exchange, boolean close) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      in.readAllBytes();
    }
    if (close) {
      // The JDK server closes the connection after this exchange when the header says so.
      exchange.getResponseHeaders().set("Connection", "close");
    }
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(200, BODY.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(BODY);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
