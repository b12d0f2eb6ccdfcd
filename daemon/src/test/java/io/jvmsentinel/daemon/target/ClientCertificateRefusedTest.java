package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.tls.ClientCertificateRequests.Seen;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.ConnectIOException;
import java.rmi.UnmarshalException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failures of connecting to a JDK agent with {@code ssl.need.client.auth=true} as they came
 * from JDK 11, 17 and 21 targets (ClientCertificateRefusedIT reproduces them), and their
 * look-alikes that must keep their reason: which get the client-certificate diagnosis.
 */
class ClientCertificateRefusedTest {
  private static final String JRMP =
      "error during JRMP connection establishment; nested exception is: \n\t";
  private static final Optional<String> SECRET =
      Optional.of("tls.crt and tls.key of the pod's Secret");

  @TempDir static Path dir;
  private static X509Certificate sentinel;
  private static X509Certificate expired;

  /** A CA certificate of {@code expired}'s key, expired too, and one it issued, valid now. */
  private static X509Certificate expiredCa;

  private static X509Certificate issuedByExpiredCa;

  /** An hour into the validity of {@code sentinel}. */
  private static Instant now;

  @BeforeAll
  static void certificate() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    TestCertificates.Identity old = pki.identity("sentinel-old", "pw-123456");
    sentinel = read(old.certificate());
    now = sentinel.getNotBefore().toInstant().plus(Duration.ofHours(1));
    TestCertificates.Identity ca = pki.authority("agent-ca", "ca-pw-1234");
    TestCertificates.Identity issuing = pki.issued(ca, "sentinel-expired", "pw-123456", "-3d", 1);
    expired = read(issuing.certificate());
    // The expired one's key as an expired CA, and a certificate of sentinel-old's key it issued.
    expiredCa = read(pki.reissued(ca, issuing, "expired-ca", "-3d", 1, "bc:c"));
    issuedByExpiredCa = read(pki.reissued(issuing, old, "below-expired-ca", "-1d", 3));
  }

  private static X509Certificate read(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  /** TLS 1.3: the agent's refusal raced the daemon's first write (JRMP's header). */
  private static ConnectIOException brokenPipe() {
    SocketException pipe = new SocketException("Broken pipe");
    return new ConnectIOException(JRMP + pipe, pipe);
  }

  /** The same refusal when its alert arrived first. */
  private static ConnectIOException badCertificateAlert() {
    SSLHandshakeException alert =
        new SSLHandshakeException("Received fatal alert: bad_certificate");
    return new ConnectIOException(JRMP + alert, alert);
  }

  private static Seen asked(List<X509Certificate> sent, List<X509Certificate> held) {
    return new Seen(true, List.of(new X500Principal("CN=sentinel-new")), sent, held);
  }

  private static final Seen NOTHING_ASKED = new Seen(false, List.of(), List.of(), List.of());

  @Test
  void aBrokenPipeAfterTheRequestWithNoKeyIsATlsFailureThatSaysWhatToConfigure() {
    ConnectIOException failure = brokenPipe();
    assertThat(ConnectFailure.classify(failure)).as("today").isEqualTo(ConnectFailure.ERROR);

    ClientCertificateRefused refused =
        ClientCertificateRefused.of(failure, asked(List.of(), List.of()), Optional.empty(), now)
            .orElseThrow();

    assertThat(ConnectFailure.classify(refused)).isEqualTo(ConnectFailure.TLS);
    assertThat(ConnectFailure.describe(refused)).isEqualTo("SocketException: Broken pipe");
    assertThat(ConnectFailure.hintFor(refused))
        .startsWith(" (the target requires a client certificate and the daemon has none to send:")
        .contains("tls.keyStore", "tls.crt and tls.key in its Secret")
        .endsWith(
            "under TLS 1.3 the agent's refusal can arrive as a broken connection right after the"
                + " handshake instead of its alert (bad_certificate, certificate_unknown))");
  }

  @Test
  void aKeyOfAnotherIssuerIsNamedWithTheIssuersTheTargetAccepts() {
    ClientCertificateRefused refused =
        ClientCertificateRefused.of(brokenPipe(), asked(List.of(), List.of(sentinel)), SECRET, now)
            .orElseThrow();

    assertThat(ConnectFailure.hintFor(refused))
        .contains(
            "the target requires a client certificate issued by CN=sentinel-new and the daemon"
                + " sent none: the one from tls.crt and tls.key of the pod's Secret"
                + " (CN=sentinel-old, issued by CN=sentinel-old) is not issued by one it accepts",
            "javax.net.ssl.trustStore of the target JVM");
  }

  @Test
  void theIssuersATargetNamesAreQuotedCleanedAndAtMostThree() {
    List<X500Principal> named =
        List.of(
            new X500Principal("CN=a\u202Egnp.exe"),
            new X500Principal("CN=b"),
            new X500Principal("CN=c"),
            new X500Principal("CN=d"),
            new X500Principal("CN=e"));
    Seen seen = new Seen(true, named, List.of(), List.of(sentinel));

    String hint =
        ConnectFailure.hintFor(
            ClientCertificateRefused.of(brokenPipe(), seen, SECRET, now).orElseThrow());

    assertThat(hint)
        .contains("issued by CN=a_gnp.exe or CN=b or CN=c (or 2 more) and the daemon sent none")
        .doesNotContain("\u202E", "CN=d");
  }

  @Test
  void aCertificateSentAndRefusedIsNamed() {
    ClientCertificateRefused refused =
        ClientCertificateRefused.of(
                badCertificateAlert(), asked(List.of(sentinel), List.of(sentinel)), SECRET, now)
            .orElseThrow();

    assertThat(ConnectFailure.classify(refused)).isEqualTo(ConnectFailure.TLS);
    assertThat(ConnectFailure.describe(refused))
        .isEqualTo("SSLHandshakeException: Received fatal alert: bad_certificate");
    assertThat(ConnectFailure.hintFor(refused))
        .contains(
            "most likely refused the one sent (CN=sentinel-old, issued by CN=sentinel-old, from"
                + " tls.crt and tls.key of the pod's Secret)")
        .as("the alert says it all: no TLS 1.3 remark")
        .doesNotContain("broken connection");
  }

  @Test
  void anExpiredCertificateSentIsNamedWithItsNotAfterEvenAsABrokenPipe() {
    ClientCertificateRefused refused =
        ClientCertificateRefused.of(
                brokenPipe(), asked(List.of(expired), List.of(expired)), SECRET, now)
            .orElseThrow();

    assertThat(ConnectFailure.classify(refused)).isEqualTo(ConnectFailure.TLS);
    assertThat(ConnectFailure.hintFor(refused))
        .contains(
            "the target requires a client certificate and refused the one sent"
                + " (CN=sentinel-expired, issued by CN=agent-ca, from tls.crt and tls.key of the"
                + " pod's Secret): it expired at "
                + expired.getNotAfter().toInstant()
                + " (notAfter); give the daemon a valid one in tls.crt and tls.key of the pod's"
                + " Secret")
        .doesNotContain("most likely", "trust store");
  }

  @Test
  void anExpiredCaCertificateSentInTheChainIsNamedNotTheAgentsTrust() {
    ClientCertificateRefused refused =
        ClientCertificateRefused.of(
                brokenPipe(),
                asked(List.of(issuedByExpiredCa, expiredCa), List.of(issuedByExpiredCa)),
                SECRET,
                now)
            .orElseThrow();

    assertThat(ConnectFailure.hintFor(refused))
        .contains(
            "the target requires a client certificate and refused the one sent (CN=sentinel-old,"
                + " issued by CN=sentinel-expired, from tls.crt and tls.key of the pod's Secret):"
                + " its chain's CA certificate CN=sentinel-expired (issued by CN=agent-ca) expired"
                + " at "
                + expiredCa.getNotAfter().toInstant()
                + " (notAfter): an agent that trusts only a CA above it refuses the chain (one that"
                + " trusts CN=sentinel-expired itself does not check its dates); give the daemon a"
                + " valid chain in tls.crt and tls.key of the pod's Secret")
        .doesNotContain("most likely", "trust store");
  }

  @Test
  void theAlertAndTheBrokenPipeOfOneRefusalAreTheSameFailureForTheLog() {
    Seen seen = asked(List.of(expired), List.of(expired));
    ClientCertificateRefused pipe =
        ClientCertificateRefused.of(brokenPipe(), seen, SECRET, now).orElseThrow();
    ClientCertificateRefused alert =
        ClientCertificateRefused.of(badCertificateAlert(), seen, SECRET, now).orElseThrow();

    assertThat(ConnectFailure.hintFor(pipe)).isNotEqualTo(ConnectFailure.hintFor(alert));
    assertThat(ConnectFailure.sameness(pipe, "a"))
        .isEqualTo(ConnectFailure.sameness(alert, "b"))
        .startsWith("the target requires a client certificate and refused the one sent");
    assertThat(ConnectFailure.sameness(new SocketException("Broken pipe"), "a")).isEqualTo("a");
  }

  @Test
  void aCertificateNotYetValidIsNamedWithItsNotBefore() {
    Instant beforeIt = sentinel.getNotBefore().toInstant().minus(Duration.ofMinutes(5));

    String hint =
        ConnectFailure.hintFor(
            ClientCertificateRefused.of(
                    badCertificateAlert(),
                    asked(List.of(sentinel), List.of(sentinel)),
                    SECRET,
                    beforeIt)
                .orElseThrow());

    assertThat(hint)
        .contains(
            "(CN=sentinel-old, issued by CN=sentinel-old, from tls.crt and tls.key of the pod's"
                + " Secret): it is not valid before "
                + sentinel.getNotBefore().toInstant()
                + " (notBefore)");
  }

  @Test
  void aBrokenPipeWhereNoCertificateWasAskedIsNotDiagnosed() {
    // A plain connection, or TLS without client authentication: a network reset stays one.
    ConnectIOException failure = brokenPipe();

    assertThat(ClientCertificateRefused.of(failure, NOTHING_ASKED, SECRET, now)).isEmpty();
    assertThat(ConnectFailure.classify(failure)).isEqualTo(ConnectFailure.ERROR);
    assertThat(ConnectFailure.hintFor(failure)).isEmpty();
  }

  @Test
  void failuresThatAreNotTheTargetsRefusalKeepTheirReason() {
    Seen seen = asked(List.of(sentinel), List.of(sentinel));
    SSLHandshakeException untrustedTarget = new SSLHandshakeException("PKIX path building failed");
    untrustedTarget.initCause(new CertificateException("no trusted certificate found"));
    SocketException reset = new SocketException("Connection reset");
    List<Throwable> others =
        List.of(
            // the daemon refused the target's certificate
            new ConnectIOException("Exception creating connection to: 127.0.0.1", untrustedTarget),
            // nothing listens: no handshake at all
            new ConnectIOException(
                "Exception creating connection to: 127.0.0.1",
                new ConnectException("Connection refused")),
            // a hung target
            new ConnectIOException(JRMP, new SocketTimeoutException("Read timed out")),
            // a reset in the middle of a call, long after the handshake
            new UnmarshalException("error unmarshalling return", reset));

    for (Throwable other : others) {
      assertThat(ClientCertificateRefused.of(other, seen, SECRET, now))
          .as(other.toString())
          .isEmpty();
    }
  }
}
