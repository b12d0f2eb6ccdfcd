package io.jvmsentinel.daemon.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the daemon sees wrong in its own client certificate, on certificates made (TestCertificates)
 * as a CA would issue them: the two dates, a key usage without digitalSignature and an extended key
 * usage without clientAuth; and the warnings for the key stores of a configuration.
 */
class ClientCertificateCheckTest {
  private static final String PW = "client-pw-5512";

  private static final String TRUST_PW = "trust-pw-7";

  @TempDir static Path dir;

  /** The daemon's trust store for the agents of {@link #ca}, made by the first target. */
  private static Path trust;

  static Identity ca;

  /** Valid now, for any purpose (extended key usage anyExtendedKeyUsage). */
  static Identity valid;

  static Identity expired;
  static Path notYetValid;

  /** A CA that {@link #ca} signed, valid now, and a client certificate it issued. */
  static Identity intermediate;

  static Identity leaf;

  /** The certificate of {@link #intermediate}'s key, issued by {@link #ca}, expired. */
  static X509Certificate intermediateExpired;

  /** The same, not valid yet. */
  static X509Certificate intermediateEarly;

  /** A CA of {@link #intermediate}'s name with another key (not the one that signed the leaf). */
  static X509Certificate intermediateRekeyed;

  @BeforeAll
  static void certificates() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    ca = pki.authority("agent-ca", "ca-pw-2231");
    valid = pki.issued(ca, "valid", PW, "-1d", 3, "EKU=anyExtendedKeyUsage");
    expired = pki.issued(ca, "expired", PW, "-3d", 1);
    notYetValid = pki.reissued(ca, valid, "tomorrow", "+1d", 2);
    intermediate = pki.issued(ca, "intermediate", PW, "-1d", 3, "bc:c");
    leaf = pki.issued(intermediate, "leaf", PW, "-1d", 3, "EKU=clientAuth");
    intermediateExpired = read(pki.reissued(ca, intermediate, "int-old", "-3d", 1, "bc:c"));
    intermediateEarly = read(pki.reissued(ca, intermediate, "int-early", "+1d", 2, "bc:c"));
    Path other = Files.createDirectories(dir.resolve("other"));
    intermediateRekeyed = read(new TestCertificates(other).authority("intermediate", PW));
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
    List<TargetConfig> targets =
        targets(
            tlsTarget("fine", valid.keyStore())
                + tlsTarget("stale", expired.keyStore())
                + """
                  - name: plain
                    jmx: "plain:9010"
                """);

    assertThat(ClientCertificateCheck.ofKeyStores(targets, Instant.now()))
        .containsExactly(
            "target stale: the client certificate in "
                + expired.keyStore()
                + " (CN=expired, issued by CN=agent-ca) will be refused by its agent: it expired at "
                + read(expired).getNotAfter().toInstant()
                + " (notAfter)");
  }

  @Test
  void aChainInOrderOrNotWithValidCaCertificatesHasNoProblem() throws Exception {
    X509Certificate own = read(leaf);
    X509Certificate issuer = read(intermediate);
    X509Certificate root = read(ca);

    for (List<X509Certificate> chain :
        List.of(
            List.of(own),
            List.of(own, issuer),
            List.of(own, issuer, root),
            List.of(own, root, issuer))) { // JDK 11 and 21 agents took this order
      assertThat(ClientCertificateCheck.chainProblem(chain, Instant.now()))
          .as("" + chain)
          .isEmpty();
    }
  }

  @Test
  void thePathOfAChainIsItsCertificatesInIssuingOrderWithoutTheOnesOffIt() throws Exception {
    X509Certificate own = read(leaf);
    X509Certificate issuer = read(intermediate);
    X509Certificate root = read(ca);

    assertThat(ClientCertificateCheck.path(List.of(own, root, issuer)))
        .containsExactly(own, issuer, root);
    assertThat(ClientCertificateCheck.path(List.of(own, root))).containsExactly(own);
    assertThat(ClientCertificateCheck.path(List.of(own, read(valid), issuer)))
        .containsExactly(own, issuer);
  }

  @Test
  void anExpiredOrNotYetValidCaCertificateInTheChainIsNamedWithTheAgentsItFails() throws Exception {
    X509Certificate own = read(leaf);

    assertThat(
            ClientCertificateCheck.chainProblem(
                List.of(own, intermediateExpired, read(ca)), Instant.now()))
        .contains(
            "its chain's CA certificate CN=intermediate (issued by CN=agent-ca) expired at "
                + intermediateExpired.getNotAfter().toInstant()
                + " (notAfter): an agent that trusts only a CA above it refuses the chain (one"
                + " that trusts CN=intermediate itself does not check its dates)");
    assertThat(ClientCertificateCheck.chainProblem(List.of(own, intermediateEarly), Instant.now()))
        .get()
        .asString()
        .startsWith(
            "its chain's CA certificate CN=intermediate (issued by CN=agent-ca) is not valid"
                + " before "
                + intermediateEarly.getNotBefore().toInstant()
                + " (notBefore)");
    assertThat(ClientCertificateCheck.problem(own, Instant.now()))
        .as("the client's own certificate is fine")
        .isEmpty();
    assertThat(
            ClientCertificateCheck.chainProblem(
                List.of(own, read(intermediate), read(ca)),
                read(ca).getNotAfter().toInstant().plusSeconds(60)))
        .as(
            "a root sent along is the agent's trust anchor, its dates unchecked; only the"
                + " intermediate's are named")
        .get()
        .asString()
        .startsWith("its chain's CA certificate CN=intermediate (issued by CN=agent-ca) expired");
  }

  @Test
  void aChainThatSkipsTheIntermediateOrHoldsAnotherKeyOfItsNameIsNamed() throws Exception {
    X509Certificate own = read(leaf);

    assertThat(ClientCertificateCheck.chainProblem(List.of(own, read(ca)), Instant.now()))
        .contains(
            "its chain lacks CN=intermediate, the issuer of CN=leaf, and holds CN=agent-ca: an"
                + " agent that does not trust CN=intermediate itself finds no path to a CA it"
                + " trusts");
    assertThat(
            ClientCertificateCheck.chainProblem(List.of(own, intermediateRekeyed), Instant.now()))
        .hasValueSatisfying(
            problem ->
                assertThat(problem)
                    .startsWith(
                        "its chain's CA certificate CN=intermediate (issued by CN=intermediate)"
                            + " did not sign CN=leaf (same name, another key"));
  }

  @Test
  void aKeyStoreWhoseChainHoldsAnExpiredIntermediateIsWarnedOf() throws Exception {
    Path store = dir.resolve("stale-chain.p12");
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "client",
        TestCertificates.privateKey(leaf),
        PW.toCharArray(),
        new Certificate[] {read(leaf), intermediateExpired, read(ca)});
    try (OutputStream out = Files.newOutputStream(store)) {
      keys.store(out, PW.toCharArray());
    }
    assertThat(
            ClientCertificateCheck.ofKeyStores(targets(tlsTarget("chained", store)), Instant.now()))
        .containsExactly(
            "target chained: the client certificate in "
                + store
                + " (CN=leaf, issued by CN=intermediate) may be refused by its agent: its chain's CA"
                + " certificate CN=intermediate (issued by CN=agent-ca) expired at "
                + intermediateExpired.getNotAfter().toInstant()
                + " (notAfter): an agent that trusts only a CA above it refuses the chain (one that"
                + " trusts CN=intermediate itself does not check its dates)");
  }

  /** The targets of a configuration with these entries under {@code targets:}. */
  private static List<TargetConfig> targets(String entries) throws Exception {
    Path yaml =
        Files.writeString(Files.createTempFile(dir, "config", ".yaml"), "targets:\n" + entries);
    return new ConfigLoader(name -> name.equals("PW") ? PW : TRUST_PW).load(yaml).targets();
  }

  /** A target entry whose agent is of {@link #ca}, with this client key store. */
  private static String tlsTarget(String name, Path keyStore) throws Exception {
    if (trust == null) {
      trust = new TestCertificates(dir).trustStore("sentinel", TRUST_PW, ca);
    }
    return """
          - name: %s
            jmx: "%s:9010"
            tls: {trustStore: %s, trustStorePasswordEnv: TRUST_PW, keyStore: %s, keyStorePasswordEnv: PW}
        """
        .formatted(name, name, trust, keyStore);
  }
}
