package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import javax.security.auth.Subject;

/**
 * A JMX server that a hostile pod could run: it accepts every login and records what the client
 * sent as credentials (the {@code String[]} of user and password, or nothing). Plain RMI, or TLS
 * for registry and connector with a given key, like {@code com.sun.management.jmxremote.ssl=true}
 * and {@code registry.ssl=true}; on loopback only, serving this JVM's platform MBeans.
 */
public final class CapturingJmxServer implements AutoCloseable {
  private final List<Optional<List<String>>> logins = new CopyOnWriteArrayList<>();
  private final int port;
  private final Registry registry;
  private final JMXConnectorServer server;

  private CapturingJmxServer(int port, Optional<SSLContext> tls) throws IOException {
    this.port = port;
    // One instance for registry and connector: equal factories share the one port.
    RMIServerSocketFactory sockets = new LoopbackSockets(tls);
    SslRMIClientSocketFactory clientSockets =
        tls.isPresent() ? new SslRMIClientSocketFactory() : null;
    registry = LocateRegistry.createRegistry(port, clientSockets, sockets);
    Map<String, Object> env = new HashMap<>();
    env.put(JMXConnectorServer.AUTHENTICATOR, (JMXAuthenticator) this::login);
    // Exported and bound by hand, as the JDK's own agent does: a JNDI bind would reach the
    // registry over plain RMI, which a TLS registry refuses.
    RMIJRMPServerImpl exported = new RMIJRMPServerImpl(port, clientSockets, sockets, env);
    server =
        new RMIConnectorServer(
            new JMXServiceURL("service:jmx:rmi:///"),
            env,
            exported,
            ManagementFactory.getPlatformMBeanServer());
    server.start();
    try {
      registry.bind("jmxrmi", exported.toStub());
    } catch (java.rmi.AlreadyBoundException e) {
      throw new IOException(e);
    }
  }

  /** Plain RMI on {@code port} of loopback. */
  public static CapturingJmxServer plain(int port) throws IOException {
    return new CapturingJmxServer(port, Optional.empty());
  }

  /** TLS on {@code port} of loopback, presenting the key of {@code identity}. */
  public static CapturingJmxServer tls(int port, TestCertificates.Identity identity)
      throws IOException, GeneralSecurityException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(identity.keyStore())) {
      keys.load(in, identity.password().toCharArray());
    }
    KeyManagerFactory managers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    managers.init(keys, identity.password().toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(managers.getKeyManagers(), null, null);
    return new CapturingJmxServer(port, Optional.of(context));
  }

  private Subject login(Object credentials) {
    logins.add(
        credentials instanceof String[] pair
            ? Optional.of(List.copyOf(Arrays.asList(pair)))
            : Optional.empty());
    return new Subject();
  }

  public int port() {
    return port;
  }

  /** Every login so far: the user and password sent, or empty when none were. */
  public List<Optional<List<String>>> logins() {
    return new ArrayList<>(logins);
  }

  @Override
  public void close() throws IOException {
    server.stop();
    UnicastRemoteObject.unexportObject(registry, true);
  }

  private static final class LoopbackSockets implements RMIServerSocketFactory {
    private final Optional<SSLContext> tls;

    LoopbackSockets(Optional<SSLContext> tls) {
      this.tls = tls;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      InetAddress loopback = InetAddress.getLoopbackAddress();
      return tls.isPresent()
          ? tls.get().getServerSocketFactory().createServerSocket(port, 50, loopback)
          : new ServerSocket(port, 50, loopback);
    }
  }
}
