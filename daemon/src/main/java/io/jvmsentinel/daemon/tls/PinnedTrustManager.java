package io.jvmsentinel.daemon.tls;

import io.jvmsentinel.daemon.config.TlsTrust;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Optional;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Accepts a server only when its chain leads to the pinned authorities (if any) and its own
 * certificate has a pinned SHA-256 fingerprint (if any). The handshake fails before the JMX
 * connection sends any credential, so a server without the pinned key learns nothing.
 */
final class PinnedTrustManager implements X509TrustManager {
  private final TlsTrust.Pinned pinned;
  private final Optional<X509TrustManager> authorities;

  PinnedTrustManager(TlsTrust.Pinned pinned) throws GeneralSecurityException {
    this.pinned = pinned;
    this.authorities =
        pinned.authorities().isEmpty() ? Optional.empty() : Optional.of(pkix(pinned));
  }

  /** The JDK's own path validation, anchored at the pinned certificates only. */
  private static X509TrustManager pkix(TlsTrust.Pinned pinned) throws GeneralSecurityException {
    KeyStore anchors = SslContexts.emptyStore(KeyStore.getDefaultType());
    for (int i = 0; i < pinned.authorities().size(); i++) {
      anchors.setCertificateEntry("pinned-" + i, pinned.authorities().get(i));
    }
    for (TrustManager manager : SslContexts.trustManagers(anchors)) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the server sent no certificate");
    }
    if (authorities.isPresent()) {
      authorities.get().checkServerTrusted(chain, authType);
    } else {
      chain[0].checkValidity();
    }
    if (!pinned.sha256().isEmpty()) {
      String fingerprint = sha256(chain[0]);
      if (!pinned.sha256().contains(fingerprint)) {
        throw new CertificateException(
            "the server's certificate (SHA-256 "
                + fingerprint
                + ") is not the pinned one; no credentials were sent");
      }
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client trust manager only");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return authorities.map(X509TrustManager::getAcceptedIssuers).orElse(new X509Certificate[0]);
  }

  /** The SHA-256 fingerprint of the DER encoding, as {@link TlsTrust.Pinned#sha256} holds it. */
  static String sha256(X509Certificate certificate) throws CertificateException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    } catch (NoSuchAlgorithmException e) {
      throw new CertificateException("SHA-256 is not available", e);
    }
  }
}
