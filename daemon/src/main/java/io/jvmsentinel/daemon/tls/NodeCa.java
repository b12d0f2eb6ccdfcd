package io.jvmsentinel.daemon.tls;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * The node agent's own certificate authority: a key pair and self-signed CA certificate made when
 * the daemon starts, and kept in its heap only (never written anywhere), a client certificate the
 * daemon presents to the JMX agents it starts, and a server certificate issued to each of those
 * agents.
 *
 * <p>Implementation notes. The JDK signs and parses certificates but has no public API to build one
 * (only the internal {@code sun.security.x509}, which changes between releases), and keytool is a
 * separate program; the certificates here need a handful of DER structures ({@link Der}), so they
 * are written here, signed with the JDK's {@code SHA256withECDSA} and read back through {@code
 * CertificateFactory}. EC P-256 keys: every JDK from 8 on has them. The extensions keep the roles
 * apart: the CA alone may sign certificates ({@code basicConstraints} CA, {@code keyCertSign}); an
 * agent's certificate is for TLS servers only ({@code extendedKeyUsage serverAuth}), so a target
 * cannot present its own certificate to log in to another target's agent (the JDK's trust manager
 * checks a client certificate's key usage); the daemon's is for TLS clients only.
 *
 * <p>Per daemon process, not persisted: a daemon that died leaves agents whose trust store holds a
 * CA nobody has any more; the next daemon stops such an agent and starts its own (see {@code
 * RemoteAgentConnector}).
 */
public final class NodeCa {
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  // Same clock (same node), but a little slack for a target whose clock is set differently.
  private static final Duration BACKDATE = Duration.ofHours(1);
  // A node agent runs for months; keys are rotated by restarting it, agents by stopping them.
  private static final Duration VALIDITY = Duration.ofDays(3650);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String caName;
  private final KeyPair caKeys;
  private final X509Certificate caCertificate;
  private final Issued client;

  /** A key and its certificate, with the chain up to the CA. */
  public record Issued(PrivateKey key, X509Certificate certificate, X509Certificate ca) {}

  private NodeCa(String name) throws GeneralSecurityException {
    this.caName = name + " CA";
    this.caKeys = newKeyPair();
    Instant now = Instant.now();
    this.caCertificate =
        sign(
            caName,
            caName,
            caKeys.getPublic(),
            now,
            List.of(
                extension("2.5.29.19", true, Der.sequence(Der.bool(true))),
                // keyCertSign and cRLSign: bits 5 and 6
                extension("2.5.29.15", true, Der.bitString(1, new byte[] {0x06}))));
    KeyPair clientKeys = newKeyPair();
    this.client =
        new Issued(
            clientKeys.getPrivate(),
            sign(name + " client", caName, clientKeys.getPublic(), now, leaf(CLIENT_AUTH)),
            caCertificate);
  }

  /** A new CA with a new client certificate; {@code name} goes into their common names. */
  public static NodeCa generate(String name) {
    try {
      return new NodeCa(name);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK cannot make EC P-256 certificates: " + e, e);
    }
  }

  public X509Certificate certificate() {
    return caCertificate;
  }

  /** The daemon's client key and certificate. */
  public Issued client() {
    return client;
  }

  /** A new key pair and a TLS server certificate for it, naming {@code address}. */
  public Issued issueServer(String commonName, InetAddress address) {
    try {
      KeyPair keys = newKeyPair();
      List<byte[]> extensions = new ArrayList<>(leaf(SERVER_AUTH));
      extensions.add(
          extension("2.5.29.17", false, Der.sequence(Der.implicit(7, address.getAddress()))));
      return new Issued(
          keys.getPrivate(),
          sign(commonName, caName, keys.getPublic(), Instant.now(), extensions),
          caCertificate);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a certificate: " + e, e);
    }
  }

  /**
   * A client context that presents the daemon's certificate and trusts exactly {@code server}: the
   * one certificate issued to that agent, not every certificate of this CA, so a target's stub that
   * points at another target's agent fails the handshake.
   */
  public SSLContext clientContext(X509Certificate server) throws GeneralSecurityException {
    char[] password = new char[0];
    KeyStore keys = SslContexts.emptyStore("PKCS12");
    keys.setKeyEntry(
        "client",
        client.key(),
        password,
        new X509Certificate[] {client.certificate(), caCertificate});
    KeyStore trust = SslContexts.emptyStore("PKCS12");
    trust.setCertificateEntry("agent", server);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(SslContexts.keyManagers(keys, password), SslContexts.trustManagers(trust), null);
    return context;
  }

  private static List<byte[]> leaf(String purpose) {
    return List.of(
        extension("2.5.29.19", true, Der.sequence()),
        // digitalSignature: bit 0 (ECDHE key exchange signs with it)
        extension("2.5.29.15", true, Der.bitString(7, new byte[] {(byte) 0x80})),
        extension("2.5.29.37", false, Der.sequence(Der.oid(purpose))));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical
        ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
        : Der.sequence(Der.oid(oid), Der.octetString(value));
  }

  private X509Certificate sign(
      String subject, String issuer, PublicKey key, Instant now, List<byte[]> extensions)
      throws GeneralSecurityException {
    byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
    byte[] tbs =
        Der.sequence(
            Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
            Der.integer(new BigInteger(127, RANDOM).add(BigInteger.ONE)),
            algorithm,
            name(issuer),
            Der.sequence(Der.time(now.minus(BACKDATE)), Der.time(now.plus(VALIDITY))),
            name(subject),
            key.getEncoded(), // already a SubjectPublicKeyInfo
            Der.explicit(3, Der.sequence(extensions.toArray(byte[][]::new))));
    Signature signer = Signature.getInstance(SIGNATURE);
    signer.initSign(caKeys.getPrivate());
    signer.update(tbs);
    byte[] certificate = Der.sequence(tbs, algorithm, Der.bitString(0, signer.sign()));
    X509Certificate parsed =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate));
    parsed.verify(caKeys.getPublic());
    return parsed;
  }

  private static byte[] name(String commonName) {
    return Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8(commonName))));
  }

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }
}
