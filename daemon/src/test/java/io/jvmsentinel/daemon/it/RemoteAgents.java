package io.jvmsentinel.daemon.it;

import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;

/**
 * What the node-agent tests share: a daemon that starts its remote JMX agent in the lab JVMs of one
 * label (forced, so on loopback here), and the agent's port, read from the daemon's note.
 */
final class RemoteAgents {
  private RemoteAgents() {}

  /** A daemon whose {@code discovery.local} watches the JVMs with {@code --label label}. */
  static SentinelDaemon startDaemon(Path dir, String label) throws Exception {
    return Daemons.start(
        dir,
        """
        discovery:
          local:
            interval: 1s
            pollInterval: 1s
            jmxAgent: remote
            include:
              - commandLine: '--label %s'
        """
            .formatted(label));
  }

  /** The port of the agent address in a daemon's note. */
  static int portOf(String note) {
    String url = note.strip();
    int end = url.lastIndexOf("/jmxrmi");
    return Integer.parseInt(url.substring(url.lastIndexOf(':', end) + 1, end));
  }

  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
