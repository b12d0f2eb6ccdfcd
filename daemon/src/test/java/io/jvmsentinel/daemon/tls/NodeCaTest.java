package io.jvmsentinel.daemon.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node CA's certificates as the JDK reads them, and the roles they keep apart, through real TLS
 * handshakes on loopback against a server set up as a JMX agent the daemon starts (its issued key,
 * the CA as its only trust, client certificates required).
 */
class NodeCaTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  private final ExecutorService server = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    server.shutdownNow();
  }

  @Test
  void certificatesChainToTheCaWithTheirRolesAndTheAgentsAddress() throws Exception {
    NodeCa ca = NodeCa.generate("test node");
    NodeCa.Issued agent = ca.issueServer("agent pid 42", LOOPBACK);
    X509Certificate root = ca.certificate();

    root.verify(root.getPublicKey());
    assertThat(root.getBasicConstraints()).isGreaterThanOrEqualTo(0); // a CA
    assertThat(root.getKeyUsage()[5]).as("keyCertSign").isTrue();
    for (X509Certificate leaf : List.of(agent.certificate(), ca.client().certificate())) {
      leaf.verify(root.getPublicKey());
      leaf.checkValidity();
      assertThat(leaf.getBasicConstraints()).as("not a CA").isEqualTo(-1);
      assertThat(leaf.getIssuerX500Principal()).isEqualTo(root.getSubjectX500Principal());
    }
    assertThat(agent.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(ca.client().certificate().getExtendedKeyUsage())
        .containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(agent.certificate().getSubjectAlternativeNames())
        .containsExactly(List.of(7, LOOPBACK.getHostAddress()));
  }

  @Test
  void theAgentAdmitsOnlyTheDaemonsClientCertificate() throws Exception {
    NodeCa ca = NodeCa.generate("test node");
    NodeCa.Issued agent = ca.issueServer("agent pid 42", LOOPBACK);
    NodeCa.Issued otherAgent = ca.issueServer("agent pid 43", LOOPBACK);
    NodeCa intruder = NodeCa.generate("intruder");

    assertThat(handshake(agent, ca.clientContext(agent.certificate()))).isEqualTo("hello");
    // Another target's agent certificate, of the same CA, is for servers only.
    assertThatThrownBy(() -> handshake(agent, context(otherAgent, agent.certificate())))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> handshake(agent, context(intruder.client(), agent.certificate())))
        .isInstanceOf(IOException.class);
  }

  @Test
  void theDaemonTrustsOnlyTheCertificateIssuedToThatAgent() throws Exception {
    NodeCa ca = NodeCa.generate("test node");
    NodeCa.Issued agent = ca.issueServer("agent pid 42", LOOPBACK);
    NodeCa.Issued otherAgent = ca.issueServer("agent pid 43", LOOPBACK);

    assertThatThrownBy(() -> handshake(otherAgent, ca.clientContext(agent.certificate())))
        .isInstanceOf(IOException.class);
  }

  /** One exchange with a server that uses {@code agent}'s key and trusts the CA alone. */
  private String handshake(NodeCa.Issued agent, SSLContext client) throws Exception {
    SSLContext serverContext = SSLContext.getInstance("TLS");
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store(agent), new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", agent.ca());
    TrustManagerFactory trusts =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    serverContext.init(keys.getKeyManagers(), trusts.getTrustManagers(), null);
    try (SSLServerSocket listening =
        (SSLServerSocket)
            serverContext.getServerSocketFactory().createServerSocket(0, 1, LOOPBACK)) {
      listening.setNeedClientAuth(true);
      listening.setSoTimeout(10_000);
      Future<?> served =
          server.submit(
              () -> {
                try (SSLSocket accepted = (SSLSocket) listening.accept()) {
                  accepted.setSoTimeout(10_000);
                  OutputStream out = accepted.getOutputStream();
                  out.write("hello".getBytes());
                  out.flush();
                }
                return null;
              });
      try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket()) {
        socket.connect(new InetSocketAddress(LOOPBACK, listening.getLocalPort()), 10_000);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        InputStream in = socket.getInputStream();
        String read = new String(in.readNBytes(5));
        if (read.isEmpty()) {
          throw new IOException("closed by the server");
        }
        return read;
      } finally {
        try {
          served.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          // the server side's view of a refused handshake
        }
      }
    }
  }

  private static KeyStore store(NodeCa.Issued key) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        "key", key.key(), new char[0], new X509Certificate[] {key.certificate(), key.ca()});
    return store;
  }

  /** A client presenting {@code key} and trusting {@code server}. */
  private static SSLContext context(NodeCa.Issued key, X509Certificate server) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store(key), new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server", server);
    TrustManagerFactory trusts =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), trusts.getTrustManagers(), null);
    return context;
  }
}
