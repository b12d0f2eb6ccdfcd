package io.jvmsentinel.daemon.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;

/** TCP ports on 127.0.0.1 for lab targets. */
public final class LoopbackPorts {

  // Explicitly IPv4: the lab's JMX agent binds 127.0.0.1, whatever the IPv6 preferences say.
  private static final InetAddress LOOPBACK = loopback();

  // Below every system's ephemeral range (Linux from 32768, macOS and Windows from 49152), where
  // outgoing connections take their local ports, and below the ports the daemon's local JMX agents
  // use (RemoteAgentConnector.FIRST_PORT): a port picked here stays free until someone binds it.
  static final int FIRST_PORT = 10_000;
  static final int PORTS = 10_000;
  private static final int ATTEMPTS = 64;

  private LoopbackPorts() {}

  /**
   * A port free a moment ago, picked at random below the ephemeral range: a port the kernel handed
   * out for a probe could be given next to any outgoing connection (a JMX client, a scrape) before
   * the JVM meant to listen on it binds it. Another process picking ports may still take it;
   * callers that start a JVM on it must cope with "Port already in use".
   */
  public static int freePort() {
    return freePort(() -> FIRST_PORT + ThreadLocalRandom.current().nextInt(PORTS));
  }

  /** The first of these candidates that can be bound, or one the kernel picks. */
  static int freePort(IntSupplier candidates) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = candidates.getAsInt();
      if (bindable(port)) {
        return port;
      }
    }
    // That range is crowded: fall back to one the kernel picks.
    try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }

  private static boolean bindable(int port) {
    try {
      new ServerSocket(port, 1, LOOPBACK).close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether something accepts TCP connections on 127.0.0.1:port within the timeout. */
  public static boolean accepts(int port, int timeoutMillis) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), timeoutMillis);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
