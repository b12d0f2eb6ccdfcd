package io.jvmsentinel.daemon.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy in front of a server that can be cut (every connection closed, new ones refused, as
 * when the server goes down) and restored on the same port: the client under test sees a real
 * outage, not a server that keeps its open streams alive.
 */
final class CuttableProxy implements AutoCloseable {
  private final InetSocketAddress upstream;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final int port;
  private volatile ServerSocket listener;

  CuttableProxy(int upstreamPort) {
    this.upstream = new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort);
    this.listener = listen(0);
    this.port = listener.getLocalPort();
    acceptOn(listener);
  }

  int port() {
    return port;
  }

  /** Closes every connection and refuses new ones. */
  synchronized void cut() {
    closeQuietly(listener);
    open.forEach(CuttableProxy::closeQuietly);
    open.clear();
  }

  /** Accepts connections again, on the same port. */
  synchronized void restore() {
    listener = listen(port);
    acceptOn(listener);
  }

  @Override
  public void close() {
    cut();
  }

  private static ServerSocket listen(int port) {
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return socket;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void acceptOn(ServerSocket socket) {
    daemon(
        "proxy-accept",
        () -> {
          while (!socket.isClosed()) {
            try {
              Socket client = socket.accept();
              Socket server = new Socket();
              open.add(client);
              open.add(server);
              server.connect(upstream, 2_000);
              daemon("proxy-up", () -> pump(client, server));
              daemon("proxy-down", () -> pump(server, client));
            } catch (IOException e) {
              // closed by cut(), or the server refused: the client sees its connection end
            }
          }
        });
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side went away: close both below
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
