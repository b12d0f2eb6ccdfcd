package io.jvmsentinel.daemon.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The JMX password of a configured target: read from {@code passwordEnv} or {@code passwordFile}
 * (never written in the file), and only with a {@code username}. Kubernetes discovery has no
 * password for every target: see {@link PodCredentials}.
 */
final class JmxPasswords {
  private final PasswordReader passwords;

  JmxPasswords(PasswordReader passwords) {
    this.passwords = passwords;
  }

  /**
   * @param usernameUnreadable the username was written but could not be read (reported already)
   * @param baseDir the directory a relative {@code passwordFile} starts from
   */
  Optional<Secret> read(
      String username,
      String passwordEnv,
      String passwordFile,
      boolean usernameUnreadable,
      Path baseDir,
      Consumer<String> report) {
    if (passwordEnv != null && passwordFile != null) {
      report.accept("set either 'passwordEnv' or 'passwordFile', not both");
      return Optional.empty();
    }
    if (passwordEnv == null && passwordFile == null) {
      return Optional.empty();
    }
    if (username == null && !usernameUnreadable) {
      String key = passwordEnv != null ? "passwordEnv" : "passwordFile";
      report.accept("'" + key + "' is set but 'username' is not; JMX authentication needs both");
    }
    if (passwordEnv != null) {
      return passwords.fromEnv(passwordEnv, report);
    }
    return ConfigPaths.resolve(baseDir, passwordFile, m -> report.accept("'passwordFile' " + m))
        .flatMap(file -> passwords.fromFile(file, report));
  }
}
