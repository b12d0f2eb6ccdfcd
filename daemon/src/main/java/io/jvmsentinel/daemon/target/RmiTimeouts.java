package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMISocketFactory;
import java.time.Duration;

/**
 * Puts a deadline on every remote JMX call. JMX over RMI waits forever for a reply by default, so a
 * stopped ({@code SIGSTOP}) target would hang the poll thread. The JDK offers only process-wide
 * knobs for this, which is why the timeouts are daemon-wide settings: the RMI response and
 * handshake timeouts (read timeouts on every call and every new RMI connection) and a socket
 * factory with a connect timeout.
 *
 * <p>Must run before the first RMI use: the JDK reads the response timeout once.
 */
public final class RmiTimeouts {
  private static boolean installed;

  private RmiTimeouts() {}

  public static synchronized void install(Duration connectTimeout, Duration callTimeout) {
    if (installed) {
      return;
    }
    String callMillis = Long.toString(callTimeout.toMillis());
    System.setProperty("sun.rmi.transport.tcp.responseTimeout", callMillis);
    // A call often opens a fresh RMI connection, whose JRMP handshake has its own read timeout
    // (default 60 s): a stopped target hangs there, not in the response read.
    System.setProperty("sun.rmi.transport.tcp.handshakeTimeout", callMillis);
    try {
      RMISocketFactory.setSocketFactory(new TimeoutSocketFactory((int) connectTimeout.toMillis()));
    } catch (IOException e) {
      // Already set by someone else in this JVM: keep theirs, the response timeout still applies.
    }
    installed = true;
  }

  /** Plain sockets, with a connect timeout the JDK's default factory does not have. */
  private static final class TimeoutSocketFactory extends RMISocketFactory {
    private final int connectTimeoutMillis;

    TimeoutSocketFactory(int connectTimeoutMillis) {
      this.connectTimeoutMillis = connectTimeoutMillis;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
      } catch (IOException e) {
        socket.close();
        throw e;
      }
      return socket;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      return new ServerSocket(port);
    }
  }
}
