package io.jvmsentinel.daemon.tls;

import io.jvmsentinel.daemon.config.ClientKey;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client key and certificate chain from PEM text, as a {@code kubernetes.io/tls} Secret or a
 * cert-manager Certificate holds them ({@code tls.key}, {@code tls.crt}), read into memory only.
 *
 * <p>Keys: PKCS#8 ({@code BEGIN PRIVATE KEY}), and the two encodings OpenSSL and cert-manager write
 * by default: PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}) and SEC1 EC ({@code BEGIN EC PRIVATE
 * KEY}). The JDK reads only PKCS#8, and both others are the very structure PKCS#8 wraps (RFC 5208:
 * version, algorithm, the key's own encoding as an octet string), so they are wrapped here and read
 * by the JDK's {@code KeyFactory}. fabric8's {@code CertUtils} reads these too, but from an {@code
 * internal} package, wants the algorithm told in advance, and adds the JVM-wide {@code
 * javax.net.ssl.keyStore} to the store it returns; this class keeps to the JDK. Encrypted keys are
 * refused: the daemon has no passphrase for them.
 *
 * <p>Messages say what to fix and never quote the text they were given.
 */
public final class PemKeys {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
  private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
  private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";
  private static final String TO_PKCS8 =
      "openssl pkcs8 -topk8 -nocrypt -in tls.key -out tls-pkcs8.key";

  private PemKeys() {}

  /** Which of the two texts of a client key is wrong. */
  public enum Part {
    CERTIFICATE,
    KEY
  }

  /**
   * Text that is not a usable key or certificate; the message (to follow the name of the text, as
   * in "'tls.key' of Secret s/n " + message) never quotes it.
   */
  public static final class PemException extends Exception {
    private static final long serialVersionUID = 1L;
    private final Part part;

    PemException(Part part, String message) {
      super(message, null, false, false);
      this.part = part;
    }

    public Part part() {
      return part;
    }
  }

  /**
   * The key of {@code keyPem} with the certificates of {@code chainPem} (the key's own first, as in
   * {@code tls.crt}); refused when the key does not belong to that first certificate.
   *
   * @throws PemException telling which of the two is wrong
   */
  public static ClientKey.InMemory clientKey(String chainPem, String keyPem) throws PemException {
    List<X509Certificate> chain = certificates(chainPem);
    if (chain.isEmpty()) {
      throw new PemException(Part.CERTIFICATE, "holds no PEM certificate");
    }
    PrivateKey key = privateKey(keyPem);
    if (!belongTogether(key, chain.get(0))) {
      throw new PemException(
          Part.KEY,
          "is not the key of the first certificate of the chain (the client's own certificate"
              + " must come first)");
    }
    return new ClientKey.InMemory(key, chain);
  }

  /** The certificates of PEM text in order; empty when it holds none. */
  public static List<X509Certificate> certificates(String pem) {
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      for (Certificate certificate :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        certificates.add((X509Certificate) certificate);
      }
    } catch (CertificateException e) {
      return List.of();
    }
    return certificates;
  }

  /** The first private key of PEM text: PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted. */
  public static PrivateKey privateKey(String pem) throws PemException {
    Matcher block = BLOCK.matcher(pem);
    while (block.find()) {
      String label = block.group(1);
      // PKCS#8 encrypted, or OpenSSL's legacy encryption headers (Proc-Type: 4,ENCRYPTED).
      if (label.equals("ENCRYPTED PRIVATE KEY")
          || label.endsWith("PRIVATE KEY") && block.group(2).contains("Proc-Type:")) {
        throw new PemException(
            Part.KEY,
            "is encrypted, and the daemon has no passphrase for it: store it unencrypted, as a"
                + " kubernetes.io/tls Secret does (openssl pkey -in tls.key -out tls-plain.key)");
      }
      switch (label) {
        case "PRIVATE KEY":
          return pkcs8(decode(block.group(2)));
        case "RSA PRIVATE KEY":
          return pkcs8(wrap(algorithm(RSA_ENCRYPTION, Der.nul()), decode(block.group(2))));
        case "EC PRIVATE KEY":
          byte[] sec1 = decode(block.group(2));
          return pkcs8(wrap(algorithm(EC_PUBLIC_KEY, curve(sec1)), sec1));
        default:
          // EC PARAMETERS before an EC key (openssl ecparam -genkey), or a certificate: skip.
          break;
      }
    }
    throw new PemException(
        Part.KEY,
        "holds no PEM private key (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE"
            + " KEY)");
  }

  private static byte[] decode(String base64) throws PemException {
    try {
      return Base64.getDecoder().decode(base64.replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      throw new PemException(Part.KEY, "is not valid PEM (its base64 is broken)");
    }
  }

  /** RFC 5208 PrivateKeyInfo: version 0, the algorithm, the key's own encoding. */
  private static byte[] wrap(byte[] algorithm, byte[] key) {
    return Der.sequence(Der.integer(BigInteger.ZERO), algorithm, Der.octetString(key));
  }

  private static byte[] algorithm(String oid, byte[] parameters) {
    return Der.sequence(Der.oid(oid), parameters);
  }

  /**
   * The named curve of a SEC1 ECPrivateKey (RFC 5915: version, key, {@code [0]} parameters, {@code
   * [1]} public key), as the DER the PKCS#8 algorithm's parameters take.
   */
  private static byte[] curve(byte[] sec1) throws PemException {
    Optional<DerReader.Element> outer = DerReader.first(sec1, 0, sec1.length);
    if (outer.isPresent() && outer.get().tag() == 0x30) {
      for (DerReader.Element field :
          DerReader.all(sec1, outer.get().contentStart(), outer.get().end())) {
        if (field.tag() == 0xa0) {
          Optional<DerReader.Element> oid =
              DerReader.first(sec1, field.contentStart(), field.end());
          if (oid.isPresent() && oid.get().tag() == 0x06) {
            return oid.get().encoding(sec1);
          }
        }
      }
    }
    throw new PemException(
        Part.KEY, "is an EC key without a named curve; convert it to PKCS#8 with: " + TO_PKCS8);
  }

  private static PrivateKey pkcs8(byte[] der) throws PemException {
    for (String algorithm : List.of("RSA", "EC")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException | RuntimeException e) {
        // not of this algorithm (or not a key at all): try the next
      }
    }
    throw new PemException(
        Part.KEY,
        "is not a readable RSA or EC private key; if it is one, convert it to PKCS#8 with: "
            + TO_PKCS8);
  }

  /** Whether {@code certificate} holds the public half of {@code key}: it verifies a signature. */
  private static boolean belongTogether(PrivateKey key, X509Certificate certificate) {
    String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // another algorithm, curve or key size: not this certificate's key
    }
  }
}
