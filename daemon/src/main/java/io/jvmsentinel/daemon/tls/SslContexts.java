package io.jvmsentinel.daemon.tls;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.KeyStores;
import io.jvmsentinel.daemon.config.StoreFile;
import io.jvmsentinel.daemon.config.TlsTrust;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;

/**
 * Builds an {@link SSLContext} from explicit stores. Never {@code SSLContext.setDefault} and never
 * {@code javax.net.ssl.*}: those are JVM-wide, and each target has its own CA.
 */
public final class SslContexts {
  private SslContexts() {}

  /** A client context: trusts only {@code trustStore}; presents {@code keyStore} if asked. */
  public static SSLContext client(StoreFile trustStore, Optional<StoreFile> keyStore)
      throws KeyStores.StoreException {
    return client(new TlsTrust.Store(trustStore), keyStore.map(ClientKey.Store::new));
  }

  /**
   * A client context: trusts only what {@code trust} names (a store, or pinned certificates and
   * fingerprints); presents {@code clientKey} if asked.
   */
  public static SSLContext client(TlsTrust trust, Optional<ClientKey> clientKey)
      throws KeyStores.StoreException {
    return client(trust, clientKey, new ClientCertificateRequests());
  }

  /**
   * As {@link #client(TlsTrust, Optional)}, and records in {@code requests} whether a server asks
   * for a client certificate and which one is sent (none when there is no {@code clientKey}).
   */
  public static SSLContext client(
      TlsTrust trust, Optional<ClientKey> clientKey, ClientCertificateRequests requests)
      throws KeyStores.StoreException {
    try {
      TrustManager[] trustManagers =
          trust instanceof TlsTrust.Pinned pinned
              ? new TrustManager[] {new PinnedTrustManager(pinned)}
              : storeTrust(((TlsTrust.Store) trust).file());
      SSLContext context = SSLContext.getInstance("TLS");
      Optional<X509KeyManager> keys =
          clientKey.isPresent()
              ? Optional.of(x509(keyManagers(clientKey.get())))
              : Optional.empty();
      context.init(new KeyManager[] {requests.watching(keys)}, trustManagers, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new KeyStores.StoreException(
          describe(trust) + ": cannot build a TLS context: " + e.getClass().getSimpleName());
    }
  }

  private static TrustManager[] storeTrust(StoreFile trustStore)
      throws KeyStores.StoreException, GeneralSecurityException {
    return trustManagers(KeyStores.openTrustStore(trustStore));
  }

  private static String describe(TlsTrust trust) {
    return trust instanceof TlsTrust.Store store
        ? store.file().path().toString()
        : "pinned certificates";
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

  private static KeyManager[] keyManagers(ClientKey key)
      throws KeyStores.StoreException, GeneralSecurityException {
    if (key instanceof ClientKey.InMemory memory) {
      // A store in this heap only, never written: its password protects nothing. Its chain in
      // issuing order: a Secret's tls.crt may list the intermediates in any order (JDK agents take
      // that), PKCS12 refuses to store it so.
      char[] none = new char[0];
      KeyStore keys = emptyStore("PKCS12");
      keys.setKeyEntry(
          "client",
          memory.key(),
          none,
          ClientCertificateCheck.path(memory.chain()).toArray(new X509Certificate[0]));
      return keyManagers(keys, none);
    }
    return keyManagers(((ClientKey.Store) key).file());
  }

  private static X509KeyManager x509(KeyManager[] managers) throws GeneralSecurityException {
    for (KeyManager manager : managers) {
      if (manager instanceof X509KeyManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 key manager");
  }

  private static KeyManager[] keyManagers(StoreFile store)
      throws KeyStores.StoreException, GeneralSecurityException {
    return keyManagers(KeyStores.openKeyStore(store), store.password().value().toCharArray());
  }

  /** The JDK's key managers for {@code keys}, whose key entries {@code password} protects. */
  static KeyManager[] keyManagers(KeyStore keys, char[] password) throws GeneralSecurityException {
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(keys, password);
    return factory.getKeyManagers();
  }

  /** The JDK's trust managers (its own path validation), anchored at {@code trust} only. */
  static TrustManager[] trustManagers(KeyStore trust) throws GeneralSecurityException {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    return factory.getTrustManagers();
  }

  /** An empty key store of {@code type} held in memory, to be filled with entries. */
  public static KeyStore emptyStore(String type) throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot create an empty " + type + " key store", e);
    }
    return store;
  }
}
