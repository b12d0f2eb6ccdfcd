package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.KeyStores;
import io.jvmsentinel.daemon.config.RegistryAddress;
import io.jvmsentinel.daemon.config.TargetTlsConfig;
import io.jvmsentinel.daemon.tls.ClientCertificateRequests;
import io.jvmsentinel.daemon.tls.SslContexts;
import java.io.IOException;
import java.rmi.NotBoundException;
import java.rmi.Remote;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnector;
import javax.management.remote.rmi.RMIServer;
import javax.net.ssl.SSLContext;

/**
 * Connects to a JMX agent that runs with {@code com.sun.management.jmxremote.ssl=true}, with this
 * target's own trust store and client key store. Every socket of the connection (registry lookup,
 * connector server, connection, distributed GC) goes through one {@link TlsSocketFactory}; nothing
 * JVM-wide is touched. See {@link TlsStubs} for how the server's stubs are redirected.
 */
public final class TlsJmxConnector implements Connector {
  private final TimeLimitedConnect connects;
  private final String target;
  private final JMXServiceURL url;
  private final RegistryAddress registry;
  private final ContextSource contexts;
  private final Optional<String> clientKey;
  private final boolean registryTls;
  private final Credentials credentials;
  private final Duration connectTimeout;
  private final Duration callTimeout;

  /** Where each connection attempt's TLS context comes from. */
  @FunctionalInterface
  interface ContextSource {
    /** A context that records its client certificate requests in {@code requests}, or not. */
    SSLContext context(ClientCertificateRequests requests) throws IOException;
  }

  /** With the stores of a {@code targets:} entry, read again at each attempt. */
  public TlsJmxConnector(
      String target,
      JMXServiceURL url,
      TargetTlsConfig tls,
      Credentials credentials,
      Duration connectTimeout,
      Duration callTimeout) {
    this(
        target,
        url,
        requests -> {
          try {
            // Per attempt: a renewed certificate in the stores is picked up on the next connect.
            return SslContexts.client(tls.trust(), tls.clientKey(), requests);
          } catch (KeyStores.StoreException e) {
            throw new IOException("TLS stores of target " + target + ": " + e.getMessage());
          }
        },
        tls.registry(),
        tls.clientKey().map(TlsJmxConnector::describe),
        credentials,
        connectTimeout,
        callTimeout);
  }

  private static String describe(ClientKey key) {
    return key instanceof ClientKey.Store store
        ? "key store " + store.file().path()
        : "tls.crt and tls.key of the pod's Secret";
  }

  TlsJmxConnector(
      String target,
      JMXServiceURL url,
      ContextSource contexts,
      boolean registryTls,
      Optional<String> clientKey,
      Credentials credentials,
      Duration connectTimeout,
      Duration callTimeout) {
    this.target = target;
    this.url = url;
    this.registry =
        RegistryAddress.of(url)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "TLS needs a registry address (HOST:PORT or"
                            + " service:jmx:rmi:///jndi/rmi://HOST:PORT/NAME), got "
                            + url));
    this.contexts = contexts;
    this.registryTls = registryTls;
    this.clientKey = clientKey;
    this.credentials = credentials;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
    this.connects = new TimeLimitedConnect("jmx-connect-" + target);
  }

  /**
   * Connects; a failure that looks like the target refusing the client certificate (or its absence)
   * comes as a {@link ClientCertificateRefused} that says so, with the failure as cause.
   */
  @Override
  public JMXConnector connect() throws IOException {
    ClientCertificateRequests requests = new ClientCertificateRequests();
    try {
      return connect(contexts.context(requests));
    } catch (IOException e) {
      Optional<ClientCertificateRefused> refused =
          ClientCertificateRefused.of(e, requests.seen(), clientKey, Instant.now());
      if (refused.isPresent()) {
        throw refused.get();
      }
      throw e;
    }
  }

  private JMXConnector connect(SSLContext context) throws IOException {
    TlsSocketFactory sockets =
        new TlsSocketFactory(
            context, (int) connectTimeout.toMillis(), (int) callTimeout.toMillis());
    TlsStubs stubs = new TlsStubs(sockets, target);
    Map<String, Object> environment = RemoteJmxConnector.ClientEnvironment.of(callTimeout);
    credentials.addTo(environment);
    return connects.connect(
        () -> {
          Registry lookup =
              registryTls
                  ? LocateRegistry.getRegistry(registry.host(), registry.port(), sockets)
                  : LocateRegistry.getRegistry(registry.host(), registry.port());
          RMIServer server = stubs.rebind(serverStub(lookup), RMIServer.class);
          RMIConnector connector = new RMIConnector(new TlsRmiServer(server, stubs), environment);
          connector.connect(environment);
          return connector;
        },
        connectTimeout,
        describe());
  }

  private RMIServer serverStub(Registry lookup) throws IOException {
    Remote found;
    try {
      found = lookup.lookup(registry.name());
    } catch (NotBoundException e) {
      throw new IOException(
          "no JMX connector named '" + registry.name() + "' in the registry of " + target);
    }
    if (!(found instanceof RMIServer server)) {
      throw new IOException(
          "'" + registry.name() + "' in the registry of " + target + " is not a JMX connector");
    }
    return server;
  }

  @Override
  public String describe() {
    return url + " (TLS)";
  }
}
