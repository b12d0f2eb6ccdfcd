package io.jvmsentinel.daemon.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SelectableChannelEndPoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a new connection at once when its client address already holds the maximum, so one host
 * cannot take every connection the server accepts. Counts network connections only: over TLS, Jetty
 * opens a second, decrypted connection on top of each.
 */
final class ConnectionsPerClient implements Connection.Listener {
  private static final Logger log = LoggerFactory.getLogger(ConnectionsPerClient.class);

  private final int max;
  private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
  // A closed channel no longer knows its remote address: remember it from the opening.
  private final ConcurrentHashMap<Connection, InetAddress> clients = new ConcurrentHashMap<>();

  ConnectionsPerClient(int max) {
    this.max = max;
  }

  @Override
  public void onOpened(Connection connection) {
    InetAddress client = client(connection);
    if (client == null) {
      return;
    }
    clients.put(connection, client);
    int count = open.merge(client, 1, Integer::sum);
    if (count > max) {
      log.debug("closing a connection from {}: {} open, the limit is {}", client, count - 1, max);
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    InetAddress client = clients.remove(connection);
    if (client != null) {
      open.computeIfPresent(client, (address, count) -> count > 1 ? count - 1 : null);
    }
  }

  /** Open connections of a client, for tests. */
  int open(InetAddress client) {
    return open.getOrDefault(client, 0);
  }

  private static InetAddress client(Connection connection) {
    if (!(connection.getEndPoint() instanceof SelectableChannelEndPoint)) {
      return null; // the decrypted side of a TLS connection: counted as its network connection
    }
    SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }
}
