package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the daemon sees wrong in its own client certificate, on certificates made by keytool as a CA
 * would issue them: the two dates, a key usage without digitalSignature and an extended key usage
 * without clientAuth; and the warnings for the key stores of a configuration.
 */
class ClientCertificateCheckTest {
  private static final String PW = "client-pw-5512";

  @TempDir static Path dir;
  static Identity ca;

  /** Valid now, for any purpose (extended key usage anyExtendedKeyUsage). */
  static Identity valid;

  static Identity expired;
  static Path notYetValid;

  @BeforeAll
  static void certificates() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    ca = pki.authority("agent-ca", "ca-pw-2231");
    valid = pki.issued(ca, "valid", PW, "-1d", 3, "EKU=anyExtendedKeyUsage");
    expired = pki.issued(ca, "expired", PW, "-3d", 1);
    notYetValid = pki.reissued(ca, valid, "tomorrow", "+1d", 2);
  }

  private static X509Certificate read(Identity identity) throws Exception {
    return read(identity.certificate());
  }

  private static X509Certificate read(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  @Test
  void aValidClientCertificateHasNoProblem() throws Exception {
    assertThat(ClientCertificateCheck.problem(read(valid), Instant.now())).isEmpty();
  }

  @Test
  void theDatesAreNamedAsTheCertificateHasThem() throws Exception {
    X509Certificate old = read(expired);
    X509Certificate early = read(notYetValid);

    assertThat(ClientCertificateCheck.problem(old, Instant.now()))
        .contains("it expired at " + old.getNotAfter().toInstant() + " (notAfter)");
    assertThat(ClientCertificateCheck.problem(early, Instant.now()))
        .contains("it is not valid before " + early.getNotBefore().toInstant() + " (notBefore)");
    assertThat(ClientCertificateCheck.problem(early, early.getNotBefore().toInstant())).isEmpty();
  }

  @Test
  void keyUsagesThatForbidClientAuthenticationAreNamed() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    X509Certificate serverOnly =
        read(pki.reissued(ca, valid, "server-only", "-1d", 3, "EKU=serverAuth,codeSigning"));
    X509Certificate encipherOnly =
        read(pki.reissued(ca, valid, "encipher", "-1d", 3, "KU=keyAgreement"));

    assertThat(ClientCertificateCheck.problem(serverOnly, Instant.now()))
        .contains(
            "its extended key usage (serverAuth, codeSigning) does not allow TLS client"
                + " authentication (clientAuth)");
    assertThat(ClientCertificateCheck.problem(encipherOnly, Instant.now()))
        .contains(
            "its key usage (keyAgreement) lacks digitalSignature, which a TLS client certificate"
                + " needs");
  }

  @Test
  void eachTargetsKeyStoreIsCheckedAndOnlyItsProblemsAreListed() throws Exception {
    Path trust = new TestCertificates(dir).trustStore("sentinel", "trust-pw-7", ca);
    Path yaml =
        Files.writeString(
            dir.resolve("config.yaml"),
            """
            targets:
              - name: fine
                jmx: "a:9010"
                tls: {trustStore: %s, trustStorePasswordEnv: PW, keyStore: %s, keyStorePasswordEnv: PW}
              - name: stale
                jmx: "b:9010"
                tls: {trustStore: %s, trustStorePasswordEnv: PW, keyStore: %s, keyStorePasswordEnv: PW}
              - name: plain
                jmx: "c:9010"
            """
                .formatted(trust, valid.keyStore(), trust, expired.keyStore())
                .replace("trustStorePasswordEnv: PW", "trustStorePasswordEnv: TRUST_PW"));
    SentinelConfig config =
        new ConfigLoader(name -> name.equals("PW") ? PW : "trust-pw-7").load(yaml);

    assertThat(ClientCertificateCheck.ofKeyStores(config.targets(), Instant.now()))
        .containsExactly(
            "target stale: the client certificate in "
                + expired.keyStore()
                + " (CN=expired, issued by CN=agent-ca) will be refused by its agent: it expired at "
                + read(expired).getNotAfter().toInstant()
                + " (notAfter)");
  }
}
