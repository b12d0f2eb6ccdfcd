package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.support.Causes;
import io.jvmsentinel.daemon.tls.ClientCertificateCheck;
import io.jvmsentinel.daemon.tls.ClientCertificateRequests;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.rmi.ConnectIOException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.net.ssl.SSLException;
import javax.security.auth.x500.X500Principal;

/**
 * A TLS connect that most likely failed because the target wants another client certificate than
 * the one sent, or one where none was sent. Its message says which and what to configure, and what
 * is wrong with a certificate sent when the daemon can see it ({@link ClientCertificateCheck}: the
 * agent's alert, {@code certificate_unknown}, does not say); its cause is the failure as it came.
 *
 * <p>Only when the target asked for a client certificate during this attempt ({@link
 * ClientCertificateRequests}) and the connection then broke while RMI was opening it ({@link
 * ConnectIOException}: the handshake, or the protocol header written right after it) with a TLS
 * alert or a cut socket. Under TLS 1.3 the agent's {@code bad_certificate} alert races the client's
 * first write, so a refusal often surfaces as a "Broken pipe" without it. A plain connection never
 * gets here (no TLS, nothing asked), nor does a refused or unreachable port (no handshake yet), a
 * timeout, or the daemon's own refusal of the target's certificate ({@link CertificateException}).
 */
final class ClientCertificateRefused extends SSLException {
  private static final long serialVersionUID = 1L;

  private final String diagnosis;

  private ClientCertificateRefused(String diagnosis, String advice, Throwable failure) {
    super(advice, failure);
    this.diagnosis = diagnosis;
  }

  /**
   * What was refused and what to do, without the remark on how TLS 1.3 delivered it: the same
   * whether the agent's alert arrived or the connection broke first.
   */
  String diagnosis() {
    return diagnosis;
  }

  /**
   * The diagnosis of {@code failure}, if it fits what {@code seen} recorded.
   *
   * @param clientKey where the configured client key comes from, for the message; empty if none
   * @param now when it failed: a certificate sent is checked for its validity at that time
   */
  static Optional<ClientCertificateRefused> of(
      Throwable failure,
      ClientCertificateRequests.Seen seen,
      Optional<String> clientKey,
      Instant now) {
    if (!seen.asked() || !brokeWhileOpening(failure)) {
      return Optional.empty();
    }
    String diagnosis = diagnosis(seen, clientKey, now);
    return Optional.of(
        new ClientCertificateRefused(diagnosis, diagnosis + remark(failure), failure));
  }

  /** Broken with a TLS alert or a cut socket while RMI opened a connection; not refused locally. */
  private static boolean brokeWhileOpening(Throwable failure) {
    boolean opening = false;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CertificateException || t instanceof ClientCertificateRefused) {
        return false; // the daemon refused the target's certificate, or diagnosed already
      }
      opening |= t instanceof ConnectIOException;
    }
    Throwable root = Causes.root(failure);
    boolean cut =
        root instanceof SocketException
            && !(root instanceof ConnectException
                || root instanceof NoRouteToHostException
                || root instanceof PortUnreachableException);
    return opening && (root instanceof SSLException || cut);
  }

  private static String diagnosis(
      ClientCertificateRequests.Seen seen, Optional<String> clientKey, Instant now) {
    return !seen.sent().isEmpty()
        ? refused(seen.sent(), clientKey, now)
        : clientKey.isEmpty() ? NONE_CONFIGURED : notAccepted(seen, clientKey.get());
  }

  /** Why there was no alert to read, if there was none. */
  private static String remark(Throwable failure) {
    return Causes.root(failure) instanceof SSLException
        ? ""
        : "; under TLS 1.3 the agent's refusal can arrive as a broken connection right after"
            + " the handshake instead of its alert (bad_certificate, certificate_unknown)";
  }

  private static final String NONE_CONFIGURED =
      "the target requires a client certificate and the daemon has none to send: give the target"
          + " tls.keyStore (targets:), or tls.crt and tls.key in its Secret (discovered pods), with"
          + " a certificate the agent trusts";

  private static final String AGENT_TRUST =
      "; the agent's trust store (javax.net.ssl.trustStore of the target JVM) must hold it or its"
          + " CA";

  /** How many of the issuers a target names are quoted: a JDK's cacerts would be 100 names. */
  private static final int ISSUERS_SHOWN = 3;

  /**
   * A certificate was sent with {@code chain}: what is wrong with it if the daemon can see it (its
   * dates, its key usages), else with the CA certificates sent with it (their dates, a path that
   * stops short; {@link ClientCertificateCheck}), else that the agent does not trust it.
   */
  private static String refused(
      List<X509Certificate> chain, Optional<String> clientKey, Instant now) {
    String which =
        " the one sent ("
            + name(chain.get(0))
            + clientKey.map(from -> ", from " + from).orElse("")
            + ")";
    String in = clientKey.map(from -> " in " + from).orElse("");
    return ClientCertificateCheck.problem(chain.get(0), now)
        .map(problem -> problem + "; give the daemon a valid one" + in)
        .or(
            () ->
                ClientCertificateCheck.chainProblem(chain, now)
                    .map(problem -> problem + "; give the daemon a valid chain" + in))
        .map(
            problem ->
                "the target requires a client certificate and refused" + which + ": " + problem)
        .orElseGet(
            () ->
                "the target requires a client certificate and most likely refused"
                    + which
                    + AGENT_TRUST);
  }

  /** A key was configured but not sent: no certificate of it fits what the target named. */
  private static String notAccepted(ClientCertificateRequests.Seen seen, String clientKey) {
    List<X500Principal> issuers = seen.acceptedIssuers();
    String accepted =
        issuers.isEmpty()
            ? ""
            : " issued by "
                + issuers.stream()
                    .limit(ISSUERS_SHOWN)
                    .map(issuer -> SafeText.name(issuer.toString())) // the target's text
                    .collect(Collectors.joining(" or "))
                + (issuers.size() > ISSUERS_SHOWN
                    ? " (or " + (issuers.size() - ISSUERS_SHOWN) + " more)"
                    : "");
    String held =
        seen.held().isEmpty()
            ? "the key from " + clientKey + " is not of a type the target accepts"
            : "the one from "
                + clientKey
                + " ("
                + seen.held().stream()
                    .map(ClientCertificateRefused::name)
                    .collect(Collectors.joining("; "))
                + ") is not issued by one it accepts";
    return "the target requires a client certificate"
        + accepted
        + " and the daemon sent none: "
        + held
        + AGENT_TRUST;
  }

  private static String name(X509Certificate certificate) {
    return certificate.getSubjectX500Principal()
        + ", issued by "
        + certificate.getIssuerX500Principal();
  }
}
