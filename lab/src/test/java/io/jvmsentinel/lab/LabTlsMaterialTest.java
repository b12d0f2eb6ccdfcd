package io.jvmsentinel.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's TLS material is made with the JDK's keytool, shared safely, and forms a real chain. */
class LabTlsMaterialTest {

  @TempDir Path tmp;

  @Test
  void concurrentFirstStartsAllGetAValidChainAndShareOneDirectory() throws Exception {
    Path shared = tmp.resolve("tls");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<LabTlsMaterial>> starts = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      starts.add(pool.submit(() -> LabTlsMaterial.obtain(shared)));
    }
    for (Future<LabTlsMaterial> start : starts) {
      LabTlsMaterial material = start.get(3, TimeUnit.MINUTES);
      X509Certificate leaf = material.leaf();
      assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
      assertThat(leaf.getIssuerX500Principal().getName()).isEqualTo("CN=jvm-sentinel lab CA");
      assertThat(leaf.getSubjectAlternativeNames())
          .extracting(san -> (Object) san.get(1))
          .containsExactlyInAnyOrder((Object) "localhost", "127.0.0.1");
      assertThat(material.serverKeys().getCertificateChain("localhost")).hasSize(2);
    }
    pool.shutdown();
    try (var left = Files.list(tmp)) {
      assertThat(left).containsExactly(shared);
    }
    X509Certificate made = LabTlsMaterial.obtain(shared).leaf();
    assertThat(LabTlsMaterial.obtain(shared).leaf()).isEqualTo(made);
  }

  @Test
  void brokenMaterialIsMadeAgain() throws Exception {
    Path shared = tmp.resolve("tls");
    X509Certificate first = LabTlsMaterial.obtain(shared).leaf();
    Files.write(shared.resolve("server.p12"), new byte[] {1, 2, 3});

    X509Certificate second = LabTlsMaterial.obtain(shared).leaf();

    assertThat(second.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
    assertThat(LabTlsMaterial.load(shared).leaf()).isEqualTo(second);
    handshake(LabTlsMaterial.load(shared));
  }

  /** A client trusting only the lab CA completes a handshake with the server's chain. */
  private static void handshake(LabTlsMaterial material) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(material.serverKeys(), LabTlsMaterial.PASSWORD);
    SSLContext server = SSLContext.getInstance("TLS");
    server.init(keys.getKeyManagers(), null, null);
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(material.trustStore());
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, trust.getTrustManagers(), null);

    try (SSLServerSocket listener =
        (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0)) {
      listener.setSoTimeout(30_000);
      CompletableFuture<Integer> echoed =
          CompletableFuture.supplyAsync(
              () -> {
                try (SSLSocket accepted = (SSLSocket) listener.accept();
                    InputStream in = accepted.getInputStream()) {
                  return in.read();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      try (SSLSocket socket =
          (SSLSocket)
              client.getSocketFactory().createSocket("localhost", listener.getLocalPort())) {
        socket.setSoTimeout(30_000);
        var parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        assertThat(socket.getSession().getPeerCertificates()).hasSize(2);
        OutputStream out = socket.getOutputStream();
        out.write(42);
        out.flush();
        assertThat(echoed.get(30, TimeUnit.SECONDS)).isEqualTo(42);
      }
    }
  }
}
