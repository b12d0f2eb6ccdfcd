package io.jvmsentinel.daemon.tls;

import static io.jvmsentinel.daemon.testing.TestCertificates.pem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client keys as Kubernetes Secrets hold them: PKCS#8, and the PKCS#1 RSA and SEC1 EC encodings
 * that OpenSSL and cert-manager write, each read back to the very key keytool made; every refusal
 * says what to do and quotes nothing of the key.
 */
class PemKeysTest {
  @TempDir static Path dir;
  static Identity rsa;
  static Identity ec;

  @BeforeAll
  static void keys() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    rsa = pki.identity("rsa-client", "rsa-pw-1", "RSA");
    ec = pki.identity("ec-client", "ec-pw-1", "EC");
  }

  @Test
  void pkcs8KeysOfBothAlgorithms() throws Exception {
    for (Identity identity : List.of(rsa, ec)) {
      PrivateKey key = TestCertificates.privateKey(identity);

      assertThat(PemKeys.privateKey(pem("PRIVATE KEY", key.getEncoded()))).isEqualTo(key);
    }
  }

  @Test
  void pkcs1RsaAsCertManagerWritesIt() throws Exception {
    PrivateKey key = TestCertificates.privateKey(rsa);

    assertThat(PemKeys.privateKey(pem("RSA PRIVATE KEY", PemEncodings.pkcs1(key)))).isEqualTo(key);
  }

  @Test
  void sec1EcAfterItsParametersAsOpensslEcparamWritesIt() throws Exception {
    PrivateKey key = TestCertificates.privateKey(ec);
    String sec1 =
        pem("EC PARAMETERS", PemEncodings.curveOid(key))
            + pem("EC PRIVATE KEY", PemEncodings.sec1(key, true));

    ECPrivateKey read = (ECPrivateKey) PemKeys.privateKey(sec1);

    // The same key (its encoding differs: PKCS#8 as the JDK writes it also holds the public point).
    assertThat(read.getS()).isEqualTo(((ECPrivateKey) key).getS());
    assertThat(PemKeys.clientKey(Files.readString(ec.certificate()), sec1).key()).isEqualTo(read);
  }

  @Test
  void encryptedKeysAreRefusedWithTheCommandThatDecryptsThem() throws Exception {
    byte[] der = TestCertificates.privateKey(rsa).getEncoded();
    String legacy =
        pem("RSA PRIVATE KEY", der)
            .replace(
                "-----\n", "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00FF00FF\n\n");

    for (String encrypted : List.of(pem("ENCRYPTED PRIVATE KEY", der), legacy)) {
      PemKeys.PemException refused = refused(encrypted);

      assertThat(refused.part()).isEqualTo(PemKeys.Part.KEY);
      assertThat(refused.getMessage())
          .isEqualTo(
              "is encrypted, and the daemon has no passphrase for it: store it unencrypted, as a"
                  + " kubernetes.io/tls Secret does (openssl pkey -in tls.key -out"
                  + " tls-plain.key)");
    }
  }

  @Test
  void whatIsNoUsableKeySaysWhatToDoAndQuotesNothing() throws Exception {
    String certificate = Files.readString(rsa.certificate());
    assertThat(refused(certificate).getMessage())
        .isEqualTo(
            "holds no PEM private key (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC"
                + " PRIVATE KEY)");
    assertThat(refused("-----BEGIN PRIVATE KEY-----\nnot*base64\n-----END PRIVATE KEY-----\n"))
        .hasMessage("is not valid PEM (its base64 is broken)");

    byte[] edwards =
        KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded();
    String unsupported = pem("PRIVATE KEY", edwards);
    assertThat(refused(unsupported).getMessage())
        .isEqualTo(
            "is not a readable RSA or EC private key; if it is one, convert it to PKCS#8 with:"
                + " openssl pkcs8 -topk8 -nocrypt -in tls.key -out tls-pkcs8.key")
        .doesNotContain(Base64.getEncoder().encodeToString(edwards).substring(0, 20));

    byte[] noCurve = PemEncodings.sec1(TestCertificates.privateKey(ec), false);
    assertThat(refused(pem("EC PRIVATE KEY", noCurve)).getMessage())
        .startsWith("is an EC key without a named curve; convert it to PKCS#8 with: openssl");
  }

  @Test
  void aClientKeyIsItsKeyWithItsWholeChain() throws Exception {
    String chain = Files.readString(ec.certificate()) + Files.readString(rsa.certificate());

    ClientKey.InMemory client = PemKeys.clientKey(chain, TestCertificates.privateKeyPem(ec));

    assertThat(client.key()).isEqualTo(TestCertificates.privateKey(ec));
    assertThat(client.chain()).hasSize(2);
    assertThat(client.chain().get(0).getSubjectX500Principal().getName()).isEqualTo("CN=ec-client");
    assertThat(client)
        .isEqualTo(PemKeys.clientKey(chain, TestCertificates.privateKeyPem(ec)))
        .isNotEqualTo(
            PemKeys.clientKey(
                Files.readString(rsa.certificate()), TestCertificates.privateKeyPem(rsa)));
    assertThat(client.toString())
        .isEqualTo("InMemory[EC key of CN=ec-client]")
        .doesNotContain(Base64.getEncoder().encodeToString(client.key().getEncoded()));
  }

  @Test
  void aKeyThatIsNotTheCertificatesOrNoCertificateIsRefused() throws Exception {
    PemKeys.PemException otherKey =
        catchThrowableOfType(
            PemKeys.PemException.class,
            () ->
                PemKeys.clientKey(
                    Files.readString(ec.certificate()), TestCertificates.privateKeyPem(rsa)));
    assertThat(otherKey.part()).isEqualTo(PemKeys.Part.KEY);
    assertThat(otherKey)
        .hasMessage(
            "is not the key of the first certificate of the chain (the client's own certificate"
                + " must come first)");

    PemKeys.PemException noCertificate =
        catchThrowableOfType(
            PemKeys.PemException.class,
            () -> PemKeys.clientKey("no certificate", TestCertificates.privateKeyPem(ec)));
    assertThat(noCertificate.part()).isEqualTo(PemKeys.Part.CERTIFICATE);
    assertThat(noCertificate).hasMessage("holds no PEM certificate");
  }

  private static PemKeys.PemException refused(String pem) {
    return catchThrowableOfType(PemKeys.PemException.class, () -> PemKeys.privateKey(pem));
  }
}
