package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.tls.NodeCa;
import io.jvmsentinel.daemon.tls.SslContexts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;

/**
 * The TLS files of one agent the daemon starts: a key store with the agent's key and the
 * certificate the node CA issued to it, a trust store with the node CA alone (so the agent admits
 * only clients with a certificate of this daemon's CA), and the agent's SSL configuration naming
 * both with one random password.
 *
 * <p>JKS, not PKCS12: the agent opens them as its JVM's default key store type, and JKS is read by
 * every JDK from 8 on (as {@code jks}, or by the {@code pkcs12} type's dual-format loader), while a
 * PKCS12 file written by this JDK uses algorithms that JDK 11 before 11.0.12 and JDK 8 before 8u301
 * cannot read. The files are mode 0600 in the target's own /tmp and removed once the agent started.
 */
record AgentTlsStores(byte[] keyStore, byte[] trustStore, String sslConfig) {
  private static final SecureRandom RANDOM = new SecureRandom();

  static AgentTlsStores of(NodeCa.Issued agent, AgentFiles files) throws IOException {
    byte[] secret = new byte[24];
    RANDOM.nextBytes(secret);
    char[] password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret).toCharArray();
    try {
      KeyStore keys = SslContexts.emptyStore("JKS");
      keys.setKeyEntry(
          "agent", agent.key(), password, new X509Certificate[] {agent.certificate(), agent.ca()});
      KeyStore trust = SslContexts.emptyStore("JKS");
      trust.setCertificateEntry("node-ca", agent.ca());
      String config =
          "javax.net.ssl.keyStore="
              + files.keyStoreInTarget()
              + "\njavax.net.ssl.keyStorePassword="
              + new String(password)
              + "\njavax.net.ssl.trustStore="
              + files.trustStoreInTarget()
              + "\njavax.net.ssl.trustStorePassword="
              + new String(password)
              + "\n";
      return new AgentTlsStores(bytes(keys, password), bytes(trust, password), config);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot build the JMX agent's TLS stores: " + e, e);
    }
  }

  private static byte[] bytes(KeyStore store, char[] password)
      throws IOException, GeneralSecurityException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    store.store(out, password);
    return out.toByteArray();
  }
}
