package io.jvmsentinel.daemon.config;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What in the daemon's own client certificate makes a JMX agent refuse it, found without asking the
 * agent: its validity dates, and key usages that forbid TLS client authentication. A JDK agent's
 * trust manager checks exactly these of a client's certificate (the dates in PKIX validation; then
 * {@code sun.security.validator.EndEntityChecker}: key usage, if present, with {@code
 * digitalSignature}; extended key usage, if present, with {@code clientAuth} or {@code
 * anyExtendedKeyUsage}). Its refusal says little (under TLS 1.3 often a bare broken pipe), so the
 * daemon names these itself, when a connect fails and before, at start-up and in {@code
 * check-config}.
 */
public final class ClientCertificateCheck {
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final String ANY_EXTENDED_KEY_USAGE = "2.5.29.37.0";
  private static final int DIGITAL_SIGNATURE = 0;

  /** RFC 5280's names of the key usage bits, in bit order. */
  private static final List<String> KEY_USAGES =
      List.of(
          "digitalSignature",
          "nonRepudiation",
          "keyEncipherment",
          "dataEncipherment",
          "keyAgreement",
          "keyCertSign",
          "cRLSign",
          "encipherOnly",
          "decipherOnly");

  private static final Map<String, String> EXTENDED_KEY_USAGES =
      Map.of(
          "1.3.6.1.5.5.7.3.1",
          "serverAuth",
          CLIENT_AUTH,
          "clientAuth",
          "1.3.6.1.5.5.7.3.3",
          "codeSigning",
          "1.3.6.1.5.5.7.3.4",
          "emailProtection",
          "1.3.6.1.5.5.7.3.8",
          "timeStamping",
          "1.3.6.1.5.5.7.3.9",
          "OCSPSigning");

  private ClientCertificateCheck() {}

  /**
   * Why an agent refuses {@code certificate} as a TLS client certificate at {@code now}, as a
   * clause ("it expired at 2026-11-24T14:02:35Z (notAfter)"); empty if nothing is wrong with it
   * that the daemon can see.
   */
  public static Optional<String> problem(X509Certificate certificate, Instant now) {
    Instant notAfter = certificate.getNotAfter().toInstant();
    Instant notBefore = certificate.getNotBefore().toInstant();
    if (now.isAfter(notAfter)) {
      return Optional.of("it expired at " + notAfter + " (notAfter)");
    }
    if (now.isBefore(notBefore)) {
      return Optional.of("it is not valid before " + notBefore + " (notBefore)");
    }
    boolean[] usage = certificate.getKeyUsage();
    if (usage != null && !(usage.length > DIGITAL_SIGNATURE && usage[DIGITAL_SIGNATURE])) {
      return Optional.of(
          "its key usage ("
              + keyUsages(usage)
              + ") lacks digitalSignature, which a TLS client certificate needs");
    }
    List<String> extended;
    try {
      extended = certificate.getExtendedKeyUsage();
    } catch (CertificateParsingException e) {
      return Optional.of("its extended key usage cannot be read");
    }
    if (extended != null
        && !extended.contains(CLIENT_AUTH)
        && !extended.contains(ANY_EXTENDED_KEY_USAGE)) {
      return Optional.of(
          "its extended key usage ("
              + extended.stream()
                  .map(oid -> EXTENDED_KEY_USAGES.getOrDefault(oid, oid))
                  .collect(Collectors.joining(", "))
              + ") does not allow TLS client authentication (clientAuth)");
    }
    return Optional.empty();
  }

  /**
   * What is wrong, at {@code now}, with the client certificates of {@code targets} that come from a
   * key store file ({@code tls.keyStore}), one line per certificate, naming the target and the
   * file: for a log at start-up and for {@code check-config}. Not a problem of the configuration:
   * the file is read again at each connection attempt, so a renewed one is used without a restart.
   */
  public static List<String> ofKeyStores(List<TargetConfig> targets, Instant now) {
    List<String> warnings = new ArrayList<>();
    for (TargetConfig target : targets) {
      Optional<StoreFile> store =
          target
              .tls()
              .flatMap(TargetTlsConfig::clientKey)
              .filter(ClientKey.Store.class::isInstance)
              .map(key -> ((ClientKey.Store) key).file());
      if (store.isEmpty()) {
        continue;
      }
      for (X509Certificate certificate : certificates(store.get())) {
        problem(certificate, now)
            .ifPresent(
                problem ->
                    warnings.add(
                        "target "
                            + target.name()
                            + ": the client certificate in "
                            + store.get().path()
                            + " ("
                            + certificate.getSubjectX500Principal()
                            + ", issued by "
                            + certificate.getIssuerX500Principal()
                            + ") will be refused by its agent: "
                            + problem));
      }
    }
    return warnings;
  }

  /** The certificate of each key entry; none if the store cannot be read now (load checked it). */
  private static List<X509Certificate> certificates(StoreFile store) {
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      KeyStore keys = KeyStores.openKeyStore(store);
      for (String alias : Collections.list(keys.aliases())) {
        Certificate certificate = keys.isKeyEntry(alias) ? keys.getCertificate(alias) : null;
        if (certificate instanceof X509Certificate x509) {
          certificates.add(x509);
        }
      }
    } catch (KeyStores.StoreException | GeneralSecurityException e) {
      return List.of();
    }
    return certificates;
  }

  private static String keyUsages(boolean[] usage) {
    String set =
        IntStream.range(0, Math.min(usage.length, KEY_USAGES.size()))
            .filter(bit -> usage[bit])
            .mapToObj(KEY_USAGES::get)
            .collect(Collectors.joining(", "));
    return set.isEmpty() ? "none" : set;
  }
}
