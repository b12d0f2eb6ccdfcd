package io.jvmsentinel.daemon.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.config.TlsTrust;
import io.jvmsentinel.daemon.testing.TestCertificates;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server is trusted only with a pinned certificate: by fingerprint, by authority, or both. */
class PinnedTrustManagerTest {
  @TempDir static Path dir;
  private static X509Certificate server;
  private static X509Certificate other;

  @BeforeAll
  static void certificates() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    server = read(pki.identity("server", "pw-server-1").certificate());
    other = read(pki.identity("other", "pw-other-1").certificate());
  }

  @Test
  void theFingerprintOfThePinnedCertificateIsAcceptedAnyOtherRefused() throws Exception {
    PinnedTrustManager pinned =
        new PinnedTrustManager(
            new TlsTrust.Pinned(List.of(), List.of(PinnedTrustManager.sha256(server))));

    assertThatCode(() -> pinned.checkServerTrusted(new X509Certificate[] {server}, "EC"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> pinned.checkServerTrusted(new X509Certificate[] {other}, "EC"))
        .isInstanceOf(CertificateException.class)
        .hasMessageContaining("is not the pinned one")
        .hasMessageContaining(PinnedTrustManager.sha256(other));
  }

  @Test
  void anAuthorityFromASecretTrustsItsChainOnly() throws Exception {
    PinnedTrustManager ca = new PinnedTrustManager(new TlsTrust.Pinned(List.of(server), List.of()));

    assertThatCode(() -> ca.checkServerTrusted(new X509Certificate[] {server}, "EC"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> ca.checkServerTrusted(new X509Certificate[] {other}, "EC"))
        .isInstanceOf(CertificateException.class);
  }

  @Test
  void withBothTheChainMustBeTrustedAndTheCertificatePinned() throws Exception {
    PinnedTrustManager both =
        new PinnedTrustManager(
            new TlsTrust.Pinned(
                List.of(server, other), List.of(PinnedTrustManager.sha256(server))));

    assertThatCode(() -> both.checkServerTrusted(new X509Certificate[] {server}, "EC"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> both.checkServerTrusted(new X509Certificate[] {other}, "EC"))
        .hasMessageContaining("is not the pinned one");
  }

  @Test
  void fingerprintsAreReadAsOpensslPrintsThemOrAsPlainHex() throws Exception {
    String hex = PinnedTrustManager.sha256(server);
    String openssl = hex.toUpperCase().replaceAll("(..)(?!$)", "$1:");

    assertThat(TlsTrust.Pinned.normalise(openssl)).contains(hex);
    assertThat(TlsTrust.Pinned.normalise(" " + hex + " ")).contains(hex);
    assertThat(TlsTrust.Pinned.normalise("ab:cd")).isEmpty();
    assertThat(TlsTrust.Pinned.normalise(hex.substring(1) + "g")).isEmpty();
  }

  private static X509Certificate read(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }
}
