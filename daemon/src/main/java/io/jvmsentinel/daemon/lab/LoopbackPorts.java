package io.jvmsentinel.daemon.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;

/** TCP ports on 127.0.0.1 for lab targets. */
public final class LoopbackPorts {

  // Explicitly IPv4: the lab's JMX agent binds 127.0.0.1, whatever the IPv6 preferences say.
  private static final InetAddress LOOPBACK = loopback();

  private LoopbackPorts() {}

  /**
   * A port that was free a moment ago. Another process may take it before it is used; callers that
   * start a JVM on it must cope with "Port already in use".
   */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
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
