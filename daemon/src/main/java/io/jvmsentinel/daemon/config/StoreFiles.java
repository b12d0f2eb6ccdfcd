package io.jvmsentinel.daemon.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads a key store or trust store key and its password keys, and opens the store at load time, so
 * a missing file or a wrong password is reported by {@code check-config}, not at the first
 * connection.
 */
final class StoreFiles {
  enum Kind {
    KEY_STORE,
    TRUST_STORE
  }

  private final Problems problems;
  private final SecretKeys secrets;

  StoreFiles(Problems problems, SecretKeys secrets) {
    this.problems = problems;
    this.secrets = secrets;
  }

  /**
   * The store of {@code <path>.<key>} with its password from {@code <path>.<key>PasswordEnv|File}.
   *
   * @param file the store's file as written; null when the key is absent (a problem: required)
   */
  Optional<StoreFile> read(
      String path, String key, String file, String passwordEnv, String passwordFile, Kind kind) {
    String where = "'" + path + "." + key + "'";
    if (problems.unreadable(path + "." + key)) {
      return Optional.empty();
    }
    if (file == null) {
      problems.add(where + " is required");
      return Optional.empty();
    }
    Optional<Secret> password = secrets.read(path, key + "Password", passwordEnv, passwordFile);
    Optional<Path> filePath = secrets.resolve(file, m -> problems.add(where + " " + m));
    if (filePath.isEmpty()) {
      return Optional.empty();
    }
    Path resolved = filePath.get();
    if (!Files.isRegularFile(resolved)) {
      problems.add(where + ": " + resolved + " does not exist or is not a file");
      return Optional.empty();
    }
    if (password.isEmpty()) {
      return Optional.empty();
    }
    StoreFile store = new StoreFile(resolved, password.get());
    try {
      if (kind == Kind.KEY_STORE) {
        KeyStores.openKeyStore(store);
      } else {
        KeyStores.openTrustStore(store);
      }
    } catch (KeyStores.StoreException e) {
      problems.add(where + ": " + e.getMessage());
      return Optional.empty();
    }
    return Optional.of(store);
  }
}
