package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The mechanism of JDK-8293562 on any JDK: a shared connection cache whose methods are {@code
 * synchronized}, and whose {@link #put} closes an expired connection while still holding the lock.
 * The close waits for the peer's acknowledgement (slow I/O, as a TLS 1.3 {@code close_notify} to a
 * slow peer), so every request that gets or returns a connection waits for it.
 */
final class SlowCloseConnectionCache {
  private final int port;
  private final int requestsPerConnection;
  private final Deque<Connection> idle = new ArrayDeque<>();

  /** A pooled connection and how many requests it served. */
  static final class Connection {
    final Socket socket;
    int requests;

    Connection(Socket socket) {
      this.socket = socket;
    }
  }

  SlowCloseConnectionCache(int port, int requestsPerConnection) {
    this.port = port;
    this.requestsPerConnection = requestsPerConnection;
  }

  /** A pooled connection, or a new one (connected outside the lock). */
  Connection get() {
    Connection pooled = take();
    if (pooled != null) {
      return pooled;
    }
    try {
      return new Connection(new Socket(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized Connection take() {
    return idle.pollFirst();
  }

  /** Returns a connection; an expired one is closed here, under the cache's lock: the bug. */
  synchronized void put(Connection connection) {
    if (++connection.requests >= requestsPerConnection) {
      closeSlowly(connection);
    } else {
      idle.addFirst(connection);
    }
  }

  private static void closeSlowly(Connection connection) {
    try (Socket socket = connection.socket) {
      socket.getOutputStream().write(0);
      socket.getInputStream().read();
    } catch (IOException e) {
      // A failed close is still a close.
    }
  }
}
