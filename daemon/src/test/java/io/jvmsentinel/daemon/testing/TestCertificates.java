package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Self-signed certificates and PKCS12 stores for tests that need real TLS peers, made in the test
 * JVM as {@code keytool} makes them: the JDK's key pairs (EC P-256, RSA 2048), a subject key
 * identifier on every certificate and an authority key identifier on issued ones, extensions
 * written in keytool's {@code -ext} syntax. (A keytool process per certificate cost the suite about
 * a minute.) Each {@link #identity} is its own CA: two identities never trust each other.
 */
public final class TestCertificates {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern START = Pattern.compile("([-+])(\\d+)d");
  private static final Map<String, KeyPurposeId> PURPOSES =
      Map.of(
          "serverauth", KeyPurposeId.id_kp_serverAuth,
          "clientauth", KeyPurposeId.id_kp_clientAuth,
          "codesigning", KeyPurposeId.id_kp_codeSigning,
          "anyextendedkeyusage", KeyPurposeId.anyExtendedKeyUsage);
  private static final Map<String, Integer> KEY_USAGES =
      Map.of(
          "digitalsignature", KeyUsage.digitalSignature,
          "keyencipherment", KeyUsage.keyEncipherment,
          "keyagreement", KeyUsage.keyAgreement,
          "keycertsign", KeyUsage.keyCertSign,
          "crlsign", KeyUsage.cRLSign);

  private final Path dir;

  public TestCertificates(Path dir) {
    this.dir = dir;
  }

  /**
   * A key store with one EC key and a self-signed certificate for 127.0.0.1 and localhost; the
   * certificate also as a PEM file.
   */
  public record Identity(Path keyStore, String password, Path certificate) {}

  public Identity identity(String name, String password) throws IOException {
    return identity(name, password, "EC");
  }

  /** As {@link #identity(String, String)} with an {@code EC} (P-256) or {@code RSA} (2048) key. */
  public Identity identity(String name, String password, String keyAlgorithm) throws IOException {
    return selfSigned(name, password, keyAlgorithm, "san=ip:127.0.0.1,dns:localhost");
  }

  /**
   * A CA: a self-signed EC identity whose certificate may sign others (basic constraints {@code
   * CA:true}), for {@link #issued}.
   */
  public Identity authority(String name, String password) throws IOException {
    return selfSigned(name, password, "EC", "bc:c");
  }

  /**
   * A key store with an EC key whose certificate {@code ca} signed, its chain holding the CA's own
   * chain (an intermediate's up to its root), and that certificate as PEM; an intermediate CA is
   * one issued with {@code bc:c}. It is valid from {@code start} (keytool's {@code -startdate}:
   * {@code -3d} three days ago, {@code +1d} tomorrow) for {@code days} days and carries the keytool
   * {@code -ext} values given ({@code EKU=serverAuth}, {@code KU=keyEncipherment}).
   */
  public Identity issued(
      Identity ca, String name, String password, String start, int days, String... extensions)
      throws IOException {
    KeyPair keys = keyPair("EC");
    Entry issuer = Entry.of(ca);
    List<Certificate> chain = new ArrayList<>();
    chain.add(issuer.sign(keys.getPublic(), "CN=" + name, start(start), days, extensions));
    chain.addAll(List.of(issuer.chain()));
    return store(name, password, keys.getPrivate(), chain.toArray(Certificate[]::new));
  }

  /**
   * Another certificate for the key of {@code subject} (made by {@link #issued}), signed by {@code
   * ca} with these dates and extensions, as PEM file {@code name.crt}; no key store is written: for
   * tests of the certificate alone.
   */
  public Path reissued(
      Identity ca, Identity subject, String name, String start, int days, String... extensions)
      throws IOException {
    X509Certificate own = Entry.of(subject).certificate();
    X509Certificate certificate =
        Entry.of(ca)
            .sign(
                own.getPublicKey(),
                own.getSubjectX500Principal().getName(),
                start(start),
                days,
                extensions);
    Path file = dir.resolve(name + ".crt");
    try {
      Files.writeString(file, pem("CERTIFICATE", certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot encode " + certificate + ": " + e, e);
    }
    return file;
  }

  /** The key and chain of an identity's key store. */
  private record Entry(PrivateKey key, Certificate[] chain) {
    static Entry of(Identity identity) throws IOException {
      try {
        KeyStore keys = load(identity);
        String alias = keys.aliases().nextElement();
        return new Entry(
            (PrivateKey) keys.getKey(alias, identity.password().toCharArray()),
            keys.getCertificateChain(alias));
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot read the key of " + identity.keyStore() + ": " + e, e);
      }
    }

    X509Certificate certificate() {
      return (X509Certificate) chain[0];
    }

    /** The certificate of {@code key} for {@code subject} (a DN), signed by this key. */
    X509Certificate sign(
        PublicKey subjectKey, String subject, Instant notBefore, int days, String... extensions)
        throws IOException {
      try {
        X509v3CertificateBuilder builder =
            builder(
                    certificate().getSubjectX500Principal(),
                    new X500Principal(subject),
                    subjectKey,
                    notBefore,
                    days)
                .addExtension(
                    Extension.authorityKeyIdentifier,
                    false,
                    new JcaX509ExtensionUtils()
                        .createAuthorityKeyIdentifier(certificate().getPublicKey()));
        for (String extension : extensions) {
          extend(builder, extension);
        }
        return TestCertificates.certificate(builder, key);
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot sign for " + subject + ": " + e, e);
      }
    }
  }

  private Identity selfSigned(String name, String password, String keyAlgorithm, String extension)
      throws IOException {
    KeyPair keys = keyPair(keyAlgorithm);
    X500Principal subject = new X500Principal("CN=" + name);
    X509v3CertificateBuilder builder =
        builder(subject, subject, keys.getPublic(), Instant.now(), 2);
    extend(builder, extension);
    return store(name, password, keys.getPrivate(), certificate(builder, keys.getPrivate()));
  }

  /** A key store of this key and chain, and the chain's first certificate as PEM. */
  private Identity store(String name, String password, PrivateKey key, Certificate... chain)
      throws IOException {
    Path keyStore = dir.resolve(name + "-keys.p12");
    Path certificate = dir.resolve(name + ".crt");
    try {
      KeyStore keys = empty();
      keys.setKeyEntry(name, key, password.toCharArray(), chain);
      save(keys, keyStore, password);
      // PEM: what Prometheus' tls_config.ca_file and curl --cacert read
      Files.writeString(certificate, pem("CERTIFICATE", chain[0].getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write " + keyStore + ": " + e, e);
    }
    return new Identity(keyStore, password, certificate);
  }

  /** A version 3 certificate's builder with keytool's serial number and subject key identifier. */
  private static X509v3CertificateBuilder builder(
      X500Principal issuer, X500Principal subject, PublicKey key, Instant notBefore, int days)
      throws IOException {
    try {
      return new JcaX509v3CertificateBuilder(
              issuer,
              new BigInteger(63, RANDOM),
              Date.from(notBefore),
              Date.from(notBefore.plus(Duration.ofDays(days))),
              subject,
              key)
          .addExtension(
              Extension.subjectKeyIdentifier,
              false,
              new JcaX509ExtensionUtils().createSubjectKeyIdentifier(key));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot build a certificate for " + subject + ": " + e, e);
    }
  }

  private static X509Certificate certificate(X509v3CertificateBuilder builder, PrivateKey signer)
      throws IOException {
    String algorithm = signer.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot sign a certificate: " + e, e);
    }
  }

  /**
   * Adds one extension written as keytool's {@code -ext}: {@code san=ip:..,dns:..}, {@code bc:c} (a
   * CA, critical), {@code EKU=serverAuth,..} or {@code KU=keyEncipherment,..}.
   */
  private static void extend(X509v3CertificateBuilder builder, String written) throws IOException {
    String[] nameAndValue = written.split("=", 2);
    String name = nameAndValue[0].toLowerCase(Locale.ROOT);
    boolean critical = name.endsWith(":c") || name.endsWith(":critical");
    name = name.replaceFirst(":.*", "");
    List<String> values =
        nameAndValue.length == 1 ? List.of() : List.of(nameAndValue[1].split(","));
    switch (name) {
      case "san" ->
          builder.addExtension(
              Extension.subjectAlternativeName,
              critical,
              new GeneralNames(
                  values.stream().map(TestCertificates::generalName).toArray(GeneralName[]::new)));
      case "bc" ->
          builder.addExtension(Extension.basicConstraints, critical, new BasicConstraints(true));
      case "eku" ->
          builder.addExtension(
              Extension.extendedKeyUsage,
              critical,
              new ExtendedKeyUsage(
                  values.stream().map(v -> known(PURPOSES, v)).toArray(KeyPurposeId[]::new)));
      case "ku" ->
          builder.addExtension(
              Extension.keyUsage,
              critical,
              new KeyUsage(
                  values.stream().mapToInt(v -> known(KEY_USAGES, v)).reduce(0, (x, y) -> x | y)));
      default -> throw new IllegalArgumentException("unsupported extension " + written);
    }
  }

  private static GeneralName generalName(String written) {
    String[] typeAndName = written.split(":", 2);
    return new GeneralName(
        typeAndName[0].equals("ip") ? GeneralName.iPAddress : GeneralName.dNSName, typeAndName[1]);
  }

  private static <T> T known(Map<String, T> values, String name) {
    T value = values.get(name.toLowerCase(Locale.ROOT));
    if (value == null) {
      throw new IllegalArgumentException("unsupported value " + name);
    }
    return value;
  }

  /** keytool's relative {@code -startdate}: {@code -3d}, {@code +1d}. */
  private static Instant start(String written) {
    Matcher days = START.matcher(written);
    if (!days.matches()) {
      throw new IllegalArgumentException("unsupported start date " + written);
    }
    long offset = Long.parseLong(days.group(2)) * (days.group(1).equals("-") ? -1 : 1);
    return Instant.now().plus(Duration.ofDays(offset));
  }

  private static KeyPair keyPair(String algorithm) throws IOException {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      if (algorithm.equals("EC")) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      } else {
        generator.initialize(2048);
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot make an " + algorithm + " key: " + e, e);
    }
  }

  private static KeyStore load(Identity identity) throws IOException {
    return load(identity.keyStore(), identity.password());
  }

  private static KeyStore load(Path file, String password) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, password.toCharArray());
      return keys;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + file + ": " + e, e);
    }
  }

  private static KeyStore empty() throws IOException, GeneralSecurityException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    return keys;
  }

  private static void save(KeyStore keys, Path file, String password)
      throws IOException, GeneralSecurityException {
    try (OutputStream out = Files.newOutputStream(file)) {
      keys.store(out, password.toCharArray());
    }
  }

  /** The private key of {@code identity}, read from its key store. */
  public static PrivateKey privateKey(Identity identity) throws IOException {
    return Entry.of(identity).key();
  }

  /** The key of {@code identity} as PEM PKCS#8 ({@code BEGIN PRIVATE KEY}), as tls.key holds it. */
  public static String privateKeyPem(Identity identity) throws IOException {
    return pem("PRIVATE KEY", privateKey(identity).getEncoded());
  }

  /** DER as PEM text with this label, 64 characters a line like OpenSSL writes it. */
  public static String pem(String label, byte[] der) {
    return "-----BEGIN "
        + label
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + label
        + "-----\n";
  }

  /** A PKCS12 trust store holding the certificates of {@code trusted}. */
  public Path trustStore(String name, String password, Identity... trusted) throws IOException {
    Path store = dir.resolve(name + "-trust.p12");
    try {
      KeyStore keys = Files.exists(store) ? load(store, password) : empty();
      CertificateFactory x509 = CertificateFactory.getInstance("X.509");
      for (Identity identity : trusted) {
        try (InputStream in = Files.newInputStream(identity.certificate())) {
          keys.setCertificateEntry(
              identity.certificate().getFileName().toString(), x509.generateCertificate(in));
        }
      }
      save(keys, store, password);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write " + store + ": " + e, e);
    }
    return store;
  }
}
