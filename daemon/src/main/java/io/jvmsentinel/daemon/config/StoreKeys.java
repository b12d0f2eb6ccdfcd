package io.jvmsentinel.daemon.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A key store or trust store key and its password keys as written ({@code <key>} and {@code
 * <key>PasswordEnv|File}). {@link #open} opens the store at load time, so a missing file or a wrong
 * password is reported by {@code check-config}, not at the first connection.
 */
record StoreKeys(ConfigNode owner, String key, String file, ConfigNode.SecretRef password) {
  enum Kind {
    KEY_STORE,
    TRUST_STORE
  }

  static StoreKeys read(ConfigNode owner, String key) {
    return new StoreKeys(owner, key, owner.text(key), owner.secretRef(key + "Password"));
  }

  /** Whether any of the store's keys is written. */
  boolean written() {
    return file != null || password.written();
  }

  /** The store, opened once to check it, or empty with the problem recorded. */
  Optional<StoreFile> open(Kind kind) {
    String where = "'" + ConfigNode.join(owner.path, key) + "'";
    if (owner.unreadable(key)) {
      return Optional.empty();
    }
    if (!owner.check(file != null, where + " is required")) {
      return Optional.empty();
    }
    Optional<Secret> secret = password.read();
    Optional<Path> filePath = owner.resolve(file, m -> owner.check(false, where + " " + m));
    if (filePath.isEmpty()) {
      return Optional.empty();
    }
    Path resolved = filePath.get();
    if (!owner.check(
            Files.isRegularFile(resolved),
            where + ": " + resolved + " does not exist or is not a file")
        || secret.isEmpty()) {
      return Optional.empty();
    }
    StoreFile store = new StoreFile(resolved, secret.get());
    try {
      if (kind == Kind.KEY_STORE) {
        KeyStores.openKeyStore(store);
      } else {
        KeyStores.openTrustStore(store);
      }
    } catch (KeyStores.StoreException e) {
      owner.check(false, where + ": " + e.getMessage());
      return Optional.empty();
    }
    return Optional.of(store);
  }
}
