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

  /** One handshake against a server that needs (or not) a client certificate of CN=good. */
  private static ClientCertificateRequests.Seen handshake(
      boolean needClientAuth, Optional<Identity> client) throws Exception {
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(
        SslContexts.keyManagers(
            load(server.keyStore(), "server-pw-1"), "server-pw-1".toCharArray()),
        SslContexts.trustManagers(load(trustGood, "c-pw-1")),
        null);
    ClientCertificateRequests requests = new ClientCertificateRequests();
    SSLContext clientContext =
        SslContexts.client(
            trustServer,
            client.map(
                id -> new ClientKey.Store(new StoreFile(id.keyStore(), Secret.of(id.password())))),
            requests);
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
