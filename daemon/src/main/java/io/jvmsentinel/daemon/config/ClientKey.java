package io.jvmsentinel.daemon.config;

import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * The key and certificate the daemon presents to a target whose JMX agent runs with {@code
 * com.sun.management.jmxremote.ssl.need.client.auth=true}.
 */
public sealed interface ClientKey {

  /**
   * A key store file ({@code targets[].tls.keyStore}), read again at each connection attempt.
   *
   * @param file the key store and its password
   */
  record Store(StoreFile file) implements ClientKey {
    public Store {
      Objects.requireNonNull(file, "file");
    }
  }

  /**
   * A key and its certificate chain held in memory only (discovery, from a Kubernetes Secret's
   * {@code tls.key} and {@code tls.crt}). Equal when key and chain are: a rotated Secret is a
   * changed target. Its text never shows the key.
   *
   * @param key the private key
   * @param chain its certificate first, then the intermediates to send with it
   */
  record InMemory(PrivateKey key, List<X509Certificate> chain) implements ClientKey {
    public InMemory {
      Objects.requireNonNull(key, "key");
      chain = List.copyOf(chain);
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("a client key needs its certificate");
      }
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof InMemory that
          && key.getAlgorithm().equals(that.key.getAlgorithm())
          && MessageDigest.isEqual(key.getEncoded(), that.key.getEncoded())
          && chain.equals(that.chain);
    }

    @Override
    public int hashCode() {
      return chain.hashCode();
    }

    @Override
    public String toString() {
      return "InMemory["
          + key.getAlgorithm()
          + " key of "
          + chain.get(0).getSubjectX500Principal()
          + "]";
    }
  }
}
