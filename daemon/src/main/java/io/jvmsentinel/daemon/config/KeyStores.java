package io.jvmsentinel.daemon.config;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;

/** Opens key and trust stores, with messages that say what to fix and never quote a password. */
public final class KeyStores {
  private KeyStores() {}

  /** A store that cannot be used; the message names the file, never the password. */
  public static final class StoreException extends Exception {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
      super(message, null, false, false);
    }
  }

  /** The store, its type (PKCS12 or JKS) detected from the content. */
  public static KeyStore open(StoreFile store) throws StoreException {
    try {
      return KeyStore.getInstance(store.path().toFile(), store.password().value().toCharArray());
    } catch (IOException e) {
      // KeyStore signals a wrong password as an IOException caused by UnrecoverableKeyException.
      if (e.getCause() instanceof UnrecoverableKeyException) {
        throw new StoreException(
            store.path() + " cannot be opened with the given password (wrong password?)");
      }
      if (e instanceof java.io.FileNotFoundException || !store.path().toFile().exists()) {
        throw new StoreException(store.path() + " does not exist or cannot be read");
      }
      throw new StoreException(
          store.path() + " cannot be read: " + e.getClass().getSimpleName() + " (corrupt?)");
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new StoreException(
          store.path() + " is not a PKCS12 or JKS key store: " + e.getClass().getSimpleName());
    }
  }

  /** A key store for a server or a client: at least one private key with its certificate. */
  public static KeyStore openKeyStore(StoreFile store) throws StoreException {
    KeyStore keys = open(store);
    try {
      for (String alias : Collections.list(keys.aliases())) {
        if (keys.isKeyEntry(alias)) {
          // Reading the key proves the password opens the key too, not just the file.
          keys.getKey(alias, store.password().value().toCharArray());
          return keys;
        }
      }
    } catch (UnrecoverableKeyException e) {
      throw new StoreException(
          store.path() + ": the private key cannot be read with the store's password");
    } catch (GeneralSecurityException e) {
      throw new StoreException(store.path() + ": " + e.getClass().getSimpleName());
    }
    throw new StoreException(store.path() + " holds no private key (is it a trust store?)");
  }

  /** A trust store: at least one trusted certificate. */
  public static KeyStore openTrustStore(StoreFile store) throws StoreException {
    KeyStore trust = open(store);
    try {
      for (String alias : Collections.list(trust.aliases())) {
        if (trust.getCertificate(alias) != null) {
          return trust;
        }
      }
    } catch (GeneralSecurityException e) {
      throw new StoreException(store.path() + ": " + e.getClass().getSimpleName());
    }
    throw new StoreException(store.path() + " holds no certificate to trust");
  }
}
