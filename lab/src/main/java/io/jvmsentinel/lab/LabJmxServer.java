package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.HashMap;
import java.util.Map;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;

/**
 * A JMX connector of the lab's own, instead of the platform agent's, so a fault test can close the
 * JMX port while the JVM (and its JFR recording) keeps running: {@code -Dlab.jmx.port=P} opens it
 * on loopback; once the file {@code -Dlab.jmx.outageTrigger=<path>} appears (the test creates it
 * when it is ready for the fault), the connector is stopped ({@code JMXConnectorServer.stop()},
 * registry unexported) for {@code -Dlab.jmx.outageFor=<ms>}, then a new one opens on the same port.
 * Prints {@code LAB onset phase=jmx-outage} and {@code phase=jmx-back}.
 */
final class LabJmxServer {
  private final int port;
  private Registry registry;
  private JMXConnectorServer server;

  private LabJmxServer(int port) {
    this.port = port;
  }

  /** Opens the connector if {@code lab.jmx.port} is set, and schedules its outage if asked. */
  static void startIfConfigured(LabLog log) throws IOException {
    String port = System.getProperty("lab.jmx.port");
    if (port == null) {
      return;
    }
    LabJmxServer jmx = new LabJmxServer(Integer.parseInt(port));
    jmx.open();
    String trigger = System.getProperty("lab.jmx.outageTrigger");
    long outageFor = Long.getLong("lab.jmx.outageFor", 5000);
    if (trigger != null) {
      Path file = Paths.get(trigger);
      Thread outage = LabThreads.daemon("lab-jmx-outage", () -> jmx.outage(log, file, outageFor));
      outage.start();
    }
  }

  private void outage(LabLog log, Path trigger, long duration) {
    try {
      while (!Files.exists(trigger)) {
        Thread.sleep(100);
      }
      close();
      log.onset("jmx-outage", "duration_ms", duration);
      Thread.sleep(duration);
      open();
      log.onset("jmx-back");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      System.err.println("LAB error jmx connector: " + e);
    }
  }

  private void open() throws IOException {
    LoopbackSockets sockets = new LoopbackSockets();
    registry = LocateRegistry.createRegistry(port, null, sockets);
    Map<String, Object> env = new HashMap<>();
    env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, sockets);
    JMXServiceURL url =
        new JMXServiceURL(
            "service:jmx:rmi://127.0.0.1:" + port + "/jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    server =
        JMXConnectorServerFactory.newJMXConnectorServer(
            url, env, ManagementFactory.getPlatformMBeanServer());
    server.start();
  }

  private void close() throws IOException {
    server.stop(); // closes every client connection
    UnicastRemoteObject.unexportObject(registry, true); // frees the port
  }

  /** Binds to loopback only. Equal instances let the registry and the connector share one port. */
  static final class LoopbackSockets implements RMIServerSocketFactory, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return socket;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof LoopbackSockets;
    }

    @Override
    public int hashCode() {
      return LoopbackSockets.class.hashCode();
    }
  }
}
