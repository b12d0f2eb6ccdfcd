package io.jvmsentinel.daemon.tls;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.KeyStores;
import io.jvmsentinel.daemon.config.StoreFile;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.config.TargetTlsConfig;
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
import javax.security.auth.x500.X500Principal;

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
   * Why an agent that trusts only a CA above them refuses the CA certificates sent with a client
   * certificate ({@code chain}: the client's own first, as a key store holds it) at {@code now}, as
   * a clause; empty if nothing is wrong with them that the daemon can see. The client's own
   * certificate is {@link #problem}'s.
   *
   * <p>Measured on JDK 11 and 21 agents: one whose trust store holds only the root refuses a chain
   * whose intermediate expired or is not valid yet (PKIX checks the dates of every certificate
   * below the trust anchor), one whose trust store holds that intermediate itself takes it (a trust
   * anchor's dates are not checked), so the clause says which agents refuse it. Order does not
   * matter (the agents accepted leaf, root, intermediate), so the chain is followed by issuer; it
   * is broken where it lacks a certificate's issuer yet holds a root the path does not reach (leaf
   * and root without the intermediate, refused by agents that trust the root), or where a CA
   * certificate has the issuer's name and another key (a CA renewed with a new key). Only the CA
   * certificates on the path are dated, not a root (its trust store copy is the anchor) nor one
   * that issued none of them (unused).
   */
  public static Optional<String> chainProblem(List<X509Certificate> chain, Instant now) {
    List<X509Certificate> path = path(chain);
    // A root sent along is not checked: an agent that trusts it uses its own copy, dates unchecked.
    for (X509Certificate ca : path.subList(1, path.size())) {
      if (selfIssued(ca)) {
        continue;
      }
      Instant notAfter = ca.getNotAfter().toInstant();
      Instant notBefore = ca.getNotBefore().toInstant();
      if (now.isAfter(notAfter)) {
        return Optional.of(inChain(ca) + " expired at " + notAfter + " (notAfter)" + anchor(ca));
      }
      if (now.isBefore(notBefore)) {
        return Optional.of(
            inChain(ca) + " is not valid before " + notBefore + " (notBefore)" + anchor(ca));
      }
    }
    return broken(chain);
  }

  /** Where the path from the client's certificate through {@code chain} stops short, if it does. */
  private static Optional<String> broken(List<X509Certificate> chain) {
    List<X509Certificate> path = path(chain);
    for (int i = 0; i + 1 < path.size(); i++) {
      if (!signed(path.get(i), path.get(i + 1))) {
        return Optional.of(
            inChain(path.get(i + 1))
                + " did not sign "
                + path.get(i).getSubjectX500Principal()
                + " (same name, another key: a CA renewed with a new key?): an agent finds no"
                + " path through it");
      }
    }
    X509Certificate end = path.get(path.size() - 1);
    List<X509Certificate> off = chain.stream().filter(c -> !path.contains(c)).toList();
    if (selfIssued(end) || off.stream().noneMatch(ClientCertificateCheck::selfIssued)) {
      return Optional.empty(); // ends at a root, or below the agent's CA as one without its root
    }
    X500Principal issuer = end.getIssuerX500Principal();
    return Optional.of(
        "its chain lacks "
            + issuer
            + ", the issuer of "
            + end.getSubjectX500Principal()
            + ", and holds "
            + off.stream()
                .map(c -> c.getSubjectX500Principal().toString())
                .collect(Collectors.joining("; "))
            + ": an agent that does not trust "
            + issuer
            + " itself finds no path to a CA it trusts");
  }

  /**
   * The client's certificate (first of {@code chain}) and the issuers {@code chain} holds for it,
   * in issuing order, by name: what a key store needs (PKCS12 refuses to store a chain out of
   * order, or with a certificate that issued none of the others) and all that a path to a CA the
   * agent trusts can use.
   */
  public static List<X509Certificate> path(List<X509Certificate> chain) {
    List<X509Certificate> path = new ArrayList<>(List.of(chain.get(0)));
    X509Certificate at = chain.get(0);
    while (!selfIssued(at)) {
      X500Principal issuer = at.getIssuerX500Principal();
      Optional<X509Certificate> next =
          chain.stream()
              .filter(c -> c.getSubjectX500Principal().equals(issuer) && !path.contains(c))
              .findFirst();
      if (next.isEmpty()) {
        break;
      }
      at = next.get();
      path.add(at);
    }
    return path;
  }

  private static String inChain(X509Certificate ca) {
    return "its chain's CA certificate "
        + ca.getSubjectX500Principal()
        + " (issued by "
        + ca.getIssuerX500Principal()
        + ")";
  }

  private static String anchor(X509Certificate ca) {
    return ": an agent that trusts only a CA above it refuses the chain (one that trusts "
        + ca.getSubjectX500Principal()
        + " itself does not check its dates)";
  }

  private static boolean selfIssued(X509Certificate certificate) {
    return certificate.getIssuerX500Principal().equals(certificate.getSubjectX500Principal());
  }

  private static boolean signed(X509Certificate certificate, X509Certificate issuer) {
    try {
      certificate.verify(issuer.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /**
   * A warning's predicate for a client certificate and its {@code chain} at {@code now}: "will be
   * refused by {@code agents}: ..." for the certificate's own {@link #problem}, "may be refused by
   * {@code agents}: ..." for its chain's ({@link #chainProblem}: only agents that trust a CA above
   * the one named refuse it); empty if nothing is wrong that the daemon can see.
   */
  public static Optional<String> refusal(List<X509Certificate> chain, Instant now, String agents) {
    return problem(chain.get(0), now)
        .map(problem -> "will be refused by " + agents + ": " + problem)
        .or(
            () ->
                chainProblem(chain, now)
                    .map(problem -> "may be refused by " + agents + ": " + problem));
  }

  /**
   * What is wrong, at {@code now}, with the client certificates of {@code targets} that come from a
   * key store file ({@code tls.keyStore}) and the CA certificates of their chains ({@link
   * #refusal}), one line per certificate, naming the target and the file: for a log at start-up and
   * for {@code check-config}. Not a problem of the configuration: the file is read again at each
   * connection attempt, so a renewed one is used without a restart.
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
      for (List<X509Certificate> chain : chains(store.get())) {
        X509Certificate certificate = chain.get(0);
        String which =
            "target "
                + target.name()
                + ": the client certificate in "
                + store.get().path()
                + " ("
                + certificate.getSubjectX500Principal()
                + ", issued by "
                + certificate.getIssuerX500Principal()
                + ")";
        refusal(chain, now, "its agent")
            .map(refusal -> which + " " + refusal)
            .ifPresent(warnings::add);
      }
    }
    return warnings;
  }

  /**
   * The certificate chain of each key entry, its own certificate first; none if the store cannot be
   * read now (load checked it).
   */
  private static List<List<X509Certificate>> chains(StoreFile store) {
    List<List<X509Certificate>> chains = new ArrayList<>();
    try {
      KeyStore keys = KeyStores.openKeyStore(store);
      for (String alias : Collections.list(keys.aliases())) {
        Certificate[] chain = keys.isKeyEntry(alias) ? keys.getCertificateChain(alias) : null;
        List<X509Certificate> x509 = new ArrayList<>();
        for (Certificate certificate : chain == null ? new Certificate[0] : chain) {
          if (certificate instanceof X509Certificate c) {
            x509.add(c);
          }
        }
        if (!x509.isEmpty()) {
          chains.add(x509);
        }
      }
    } catch (KeyStores.StoreException | GeneralSecurityException e) {
      return List.of();
    }
    return chains;
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
