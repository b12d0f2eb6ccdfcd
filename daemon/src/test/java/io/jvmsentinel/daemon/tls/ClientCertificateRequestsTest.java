package io.jvmsentinel.daemon.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.StoreFile;
import io.jvmsentinel.daemon.config.TlsTrust;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real handshakes with an in-process server that needs a client certificate of {@code CN=good} (or
 * wants none): what the daemon's context records of the request and of its answer.
 */
class ClientCertificateRequestsTest {
  @TempDir static Path dir;
  private static Identity server;
  private static Identity good;
  private static Identity bad;
  private static TlsTrust trustServer;
  private static Path trustGood;

  @BeforeAll
  static void certificates() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    server = pki.identity("server", "server-pw-1");
    good = pki.identity("good", "good-pw-1");
    bad = pki.identity("bad", "bad-pw-1");
    trustGood = pki.trustStore("clients", "c-pw-1", good);
    trustServer =
        new TlsTrust.Store(
            new StoreFile(pki.trustStore("daemon", "trust-pw-1", server), Secret.of("trust-pw-1")));
  }

  @Test
  void aTrustedCertificateIsSentAndNamed() throws Exception {
    ClientCertificateRequests.Seen seen = handshake(true, Optional.of(good));

    assertThat(seen.asked()).isTrue();
    assertThat(seen.acceptedIssuers()).containsExactly(new X500Principal("CN=good"));
    assertThat(seen.sent())
        .singleElement()
        .satisfies(
            c -> assertThat(c.getSubjectX500Principal()).isEqualTo(new X500Principal("CN=good")));
  }

  @Test
  void aCertificateOfAnotherIssuerIsHeldButNotSent() throws Exception {
    ClientCertificateRequests.Seen seen = handshake(true, Optional.of(bad));

    assertThat(seen.asked()).isTrue();
    assertThat(seen.acceptedIssuers()).containsExactly(new X500Principal("CN=good"));
    assertThat(seen.sent()).isEmpty();
    assertThat(seen.held())
        .singleElement()
        .satisfies(
            c -> assertThat(c.getSubjectX500Principal()).isEqualTo(new X500Principal("CN=bad")));
  }

  @Test
  void withoutAClientKeyTheRequestIsStillSeen() throws Exception {
    ClientCertificateRequests.Seen seen = handshake(true, Optional.empty());

    assertThat(seen.asked()).isTrue();
    assertThat(seen.sent()).isEmpty();
    assertThat(seen.held()).isEmpty();
  }

  @Test
  void aServerWithoutClientAuthenticationAsksNothing() throws Exception {
    ClientCertificateRequests.Seen seen = handshake(false, Optional.of(good));

    assertThat(seen.asked()).isFalse();
    assertThat(seen.sent()).isEmpty();
  }

  /**
   * A Secret's tls.crt may list its CA certificates in any order (JDK 11 and 21 agents took leaf,
   * root, intermediate); PKCS12 refuses to store a chain so: the daemon's in-memory store holds and
   * sends it in issuing order.
   */
  @Test
  void aSecretsChainOutOfOrderIsSentInIssuingOrder() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity root = pki.authority("clients-root", "root-pw-1");
    Identity intermediate = pki.issued(root, "clients-int", "int-pw-1", "-1d", 3, "bc:c");
    Identity leaf = pki.issued(intermediate, "chained", "leaf-pw-1", "-1d", 3);
    X509Certificate own = read(leaf.certificate());
    X509Certificate issuer = read(intermediate.certificate());
    X509Certificate top = read(root.certificate());

    ClientCertificateRequests.Seen seen =
        handshake(
            true,
            pki.trustStore("clients-of-root", "c-pw-1", root),
            Optional.of(
                new ClientKey.InMemory(
                    TestCertificates.privateKey(leaf), List.of(own, top, issuer))));

    assertThat(seen.sent()).containsExactly(own, issuer, top);
  }

  private static X509Certificate read(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  /** One handshake against a server that needs (or not) a client certificate of CN=good. */
  private static ClientCertificateRequests.Seen handshake(
      boolean needClientAuth, Optional<Identity> client) throws Exception {
    return handshake(
        needClientAuth,
        trustGood,
        client.map(
            id -> new ClientKey.Store(new StoreFile(id.keyStore(), Secret.of(id.password())))));
  }

  /** One handshake against a server that trusts the clients of {@code clients} ("c-pw-1"). */
  private static ClientCertificateRequests.Seen handshake(
      boolean needClientAuth, Path clients, Optional<ClientKey> client) throws Exception {
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(
        SslContexts.keyManagers(
            load(server.keyStore(), "server-pw-1"), "server-pw-1".toCharArray()),
        SslContexts.trustManagers(load(clients, "c-pw-1")),
        null);
    ClientCertificateRequests requests = new ClientCertificateRequests();
    SSLContext clientContext = SslContexts.client(trustServer, client, requests);
    try (SSLServerSocket listening =
        (SSLServerSocket)
            serverContext
                .getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listening.setNeedClientAuth(needClientAuth);
      CompletableFuture<Void> served =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket accepted = (SSLSocket) listening.accept()) {
                  accepted.setSoTimeout(5000);
                  accepted.startHandshake();
                } catch (Exception e) {
                  // refused: what the client sees of it is not the subject here
                }
              });
      try (SSLSocket socket =
          (SSLSocket)
              clientContext
                  .getSocketFactory()
                  .createSocket(InetAddress.getLoopbackAddress(), listening.getLocalPort())) {
        socket.setSoTimeout(5000);
        try {
          socket.startHandshake();
        } catch (Exception e) {
          // TLS 1.2 refuses within the handshake; the request was seen either way
        }
      }
      served.get();
    }
    return requests.seen();
  }

  private static KeyStore load(Path file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }
}
