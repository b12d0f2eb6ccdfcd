package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback peer that is slow to acknowledge a close: for each byte it reads it waits {@code
 * ackMillis} and answers one byte, as a remote TLS peer answers a {@code close_notify} late. Its
 * connection threads come from a cached pool, reused across connections, so the peer starts no
 * thread per connection.
 */
final class SlowPeer implements AutoCloseable {
  private final ServerSocket server;
  private final ExecutorService connections =
      Executors.newCachedThreadPool(LabThreads.named("lab-slow-peer"));

  SlowPeer(long ackMillis) throws IOException {
    server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    Thread acceptor = LabThreads.daemon("lab-slow-peer-accept", () -> accept(ackMillis));
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  private void accept(long ackMillis) {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.execute(() -> serve(socket, ackMillis));
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void serve(Socket socket, long ackMillis) {
    try (socket;
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream()) {
      while (in.read() >= 0) {
        Thread.sleep(ackMillis);
        out.write(1);
        out.flush();
      }
    } catch (IOException e) {
      // The client went away: nothing to acknowledge.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    connections.shutdownNow();
  }
}
