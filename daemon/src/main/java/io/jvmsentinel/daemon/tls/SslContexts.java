package io.jvmsentinel.daemon.tls;

import io.jvmsentinel.daemon.config.KeyStores;
import io.jvmsentinel.daemon.config.StoreFile;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds an {@link SSLContext} from explicit stores. Never {@code SSLContext.setDefault} and never
 * {@code javax.net.ssl.*}: those are JVM-wide, and each target has its own CA.
 */
public final class SslContexts {
  private SslContexts() {}

  /** A client context: trusts only {@code trustStore}; presents {@code keyStore} if asked. */
  public static SSLContext client(StoreFile trustStore, Optional<StoreFile> keyStore)
      throws KeyStores.StoreException {
    KeyStore trust = KeyStores.openTrustStore(trustStore);
    try {
      TrustManagerFactory trustManagers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          keyStore.isPresent() ? keyManagers(keyStore.get()) : null,
          trustManagers.getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new KeyStores.StoreException(
          trustStore.path() + ": cannot build a TLS context: " + e.getClass().getSimpleName());
    }
  }

  /** A server context: presents the key of {@code keyStore}; asks no client certificate. */
  public static SSLContext server(StoreFile keyStore) throws KeyStores.StoreException {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers(keyStore), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new KeyStores.StoreException(
          keyStore.path() + ": cannot build a TLS context: " + e.getClass().getSimpleName());
    }
  }

  private static KeyManager[] keyManagers(StoreFile store)
      throws KeyStores.StoreException, GeneralSecurityException {
    KeyStore keys = KeyStores.openKeyStore(store);
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(keys, store.password().value().toCharArray());
    return factory.getKeyManagers();
  }
}
