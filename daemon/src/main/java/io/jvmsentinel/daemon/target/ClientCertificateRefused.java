package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.tls.ClientCertificateRequests;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.rmi.ConnectIOException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.net.ssl.SSLException;

/**
 * A TLS connect that most likely failed because the target wants another client certificate than
 * the one sent, or one where none was sent. Its message says which and what to configure; its cause
 * is the failure as it came.
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

  private ClientCertificateRefused(String advice, Throwable failure) {
    super(advice, failure);
  }

  /**
   * The diagnosis of {@code failure}, if it fits what {@code seen} recorded.
   *
   * @param clientKey where the configured client key comes from, for the message; empty if none
   */
  static Optional<ClientCertificateRefused> of(
      Throwable failure, ClientCertificateRequests.Seen seen, Optional<String> clientKey) {
    if (!seen.asked() || !brokeWhileOpening(failure)) {
      return Optional.empty();
    }
    return Optional.of(new ClientCertificateRefused(advice(seen, clientKey, failure), failure));
  }

  /** Broken with a TLS alert or a cut socket while RMI opened a connection; not refused locally. */
  static boolean brokeWhileOpening(Throwable failure) {
    boolean opening = false;
    Throwable root = failure;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CertificateException || t instanceof ClientCertificateRefused) {
        return false; // the daemon refused the target's certificate, or diagnosed already
      }
      opening |= t instanceof ConnectIOException;
      root = t;
    }
    boolean cut =
        root instanceof SocketException
            && !(root instanceof ConnectException
                || root instanceof NoRouteToHostException
                || root instanceof PortUnreachableException);
    return opening && (root instanceof SSLException || cut);
  }

  private static String advice(
      ClientCertificateRequests.Seen seen, Optional<String> clientKey, Throwable failure) {
    String trust =
        "; the agent's trust store (javax.net.ssl.trustStore of the target JVM) must hold it or"
            + " its CA";
    String what;
    if (seen.sent().isPresent()) {
      what =
          "the target requires a client certificate and most likely refused the one sent ("
              + name(seen.sent().get())
              + clientKey.map(from -> ", from " + from).orElse("")
              + ")"
              + trust;
    } else if (clientKey.isEmpty()) {
      what =
          "the target requires a client certificate and the daemon has none to send: give the"
              + " target tls.keyStore (targets:), or tls.crt and tls.key in its Secret (discovered"
              + " pods), with a certificate the agent trusts";
    } else {
      what =
          "the target requires a client certificate"
              + (seen.acceptedIssuers().isEmpty()
                  ? ""
                  : " issued by "
                      + seen.acceptedIssuers().stream()
                          .map(Object::toString)
                          .collect(Collectors.joining(" or ")))
              + " and the daemon sent none: "
              + (seen.held().isEmpty()
                  ? "the key from " + clientKey.get() + " is not of a type the target accepts"
                  : "the one from "
                      + clientKey.get()
                      + " ("
                      + seen.held().stream()
                          .map(ClientCertificateRefused::name)
                          .collect(Collectors.joining("; "))
                      + ") is not issued by one it accepts")
              + trust;
    }
    return what
        + (rootOf(failure) instanceof SSLException
            ? ""
            : "; under TLS 1.3 the agent's refusal can arrive as a broken connection right after"
                + " the handshake instead of a bad_certificate alert");
  }

  private static Throwable rootOf(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static String name(X509Certificate certificate) {
    return certificate.getSubjectX500Principal()
        + ", issued by "
        + certificate.getIssuerX500Principal();
  }
}
