package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLServerSocket;

/**
 * A local HTTPS service on 127.0.0.1 (free port) for the TLS scenarios. {@code /close} answers with
 * {@code Connection: close}, as the service of JDK-8246039 did, so every request needs a new TLS
 * connection; {@code /keep-alive} lets clients reuse connections.
 *
 * <p>A plain {@link SSLServerSocket} with a minimal HTTP/1.1 responder, not {@code
 * com.sun.net.httpserver}: runtimes jlinked without {@code jdk.httpserver} (the JDK 11 and 21
 * runtimes of the test matrix) must run the TLS scenarios too. One acceptor thread hands each
 * connection to a small fixed pool of daemon threads: the server itself must not start threads per
 * request, or it would blur the thread counts the scenarios are about. Its sockets have no
 * handshake listeners, so the server side starts no notify threads either.
 */
final class LabHttpsServer implements AutoCloseable {

  static final String CLOSE_PATH = "/close";
  static final String KEEP_ALIVE_PATH = "/keep-alive";
  private static final byte[] BODY = "ok\n".getBytes(StandardCharsets.US_ASCII);
  private static final int HANDLER_THREADS = 4;
  private static final int MAX_HEAD_BYTES = 8 * 1024;
  private static final int IDLE_MILLIS = 5_000;

  private final ServerSocket socket;
  private final ExecutorService handlers;
  private final Thread acceptor;

  private LabHttpsServer(ServerSocket socket, ExecutorService handlers) {
    this.socket = socket;
    this.handlers = handlers;
    this.acceptor = LabThreads.daemon("lab-https-accept", this::accept);
  }

  static LabHttpsServer start() {
    return start(0);
  }

  /**
   * A server on {@code port} (0: a free one) with a new {@code SSLContext}: started again on the
   * port of a closed one, it is a restarted peer that cannot resume any session the old one issued.
   */
  static LabHttpsServer start(int port) {
    ExecutorService handlers =
        Executors.newFixedThreadPool(HANDLER_THREADS, LabThreads.numbered("lab-https-"));
    try {
      ServerSocket socket = bound(port);
      LabHttpsServer server = new LabHttpsServer(socket, handlers);
      server.acceptor.start();
      return server;
    } catch (IOException e) {
      handlers.shutdownNow();
      throw new IllegalStateException("cannot start the lab HTTPS server on port " + port, e);
    }
  }

  /** A listening socket of a new server context; SO_REUSEADDR so a restart gets its port back. */
  private static ServerSocket bound(int port) throws IOException {
    ServerSocket socket = LabTls.serverContext().getServerSocketFactory().createServerSocket();
    try {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  int port() {
    return socket.getLocalPort();
  }

  /** {@code https://127.0.0.1:<port><path>}; the leaf certificate names 127.0.0.1 too. */
  String url(String path) {
    return "https://127.0.0.1:" + port() + path;
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        handlers.execute(() -> serve(connection));
      } catch (IOException e) {
        if (!socket.isClosed()) {
          System.err.println("lab https server: accept failed: " + e);
          pause();
        }
      } catch (java.util.concurrent.RejectedExecutionException e) {
        return; // Closing.
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Answers requests on one connection until the client or a {@code /close} answer ends it. */
  private static void serve(Socket connection) {
    try (Socket open = connection) {
      open.setSoTimeout(IDLE_MILLIS);
      open.setTcpNoDelay(true);
      InputStream in = open.getInputStream();
      OutputStream out = open.getOutputStream();
      String path;
      while ((path = readRequestPath(in)) != null) {
        boolean close = !path.startsWith(KEEP_ALIVE_PATH);
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                    + BODY.length
                    + (close ? "\r\nConnection: close" : "")
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(BODY);
        out.flush();
        if (close) {
          return;
        }
      }
    } catch (SocketException e) {
      // The client went away: nothing to answer.
    } catch (IOException e) {
      // A failed handshake or a timed-out idle connection: the client sees it.
    }
  }

  /**
   * The path of the next request's head (a GET without a body), or null when the client closed the
   * connection before sending one.
   */
  private static String readRequestPath(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
      int next = in.read();
      if (next < 0) {
        return null;
      }
      if (head.length() >= MAX_HEAD_BYTES) {
        throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
      }
      head.append((char) next);
    }
    String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
    return requestLine.length >= 2 ? requestLine[1] : "/";
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    handlers.shutdownNow();
  }
}
