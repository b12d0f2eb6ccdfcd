package io.jvmsentinel.daemon.config;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * The JMX password of a configured target: read from {@code passwordEnv} or {@code passwordFile}
 * (never written in the file), and only with a {@code username}. Kubernetes discovery has no
 * password for every target: see {@link PodCredentials}.
 */
final class JmxPasswords {
  private JmxPasswords() {}

  /**
   * @param owner the map with these keys; its {@code username} may have been unreadable
   * @param report takes each problem, without the owner's name
   */
  static Optional<Secret> read(
      ConfigNode owner,
      String username,
      String passwordEnv,
      String passwordFile,
      Consumer<String> report) {
    if (passwordEnv != null && passwordFile != null) {
      report.accept("set either 'passwordEnv' or 'passwordFile', not both");
      return Optional.empty();
    }
    if (passwordEnv == null && passwordFile == null) {
      return Optional.empty();
    }
    if (username == null && !owner.unreadable("username")) {
      String key = passwordEnv != null ? "passwordEnv" : "passwordFile";
      report.accept("'" + key + "' is set but 'username' is not; JMX authentication needs both");
    }
    PasswordReader passwords = owner.reading.passwords;
    return passwordEnv != null
        ? passwords.fromEnv(passwordEnv, "passwordEnv", report)
        : owner
            .resolve(passwordFile, m -> report.accept("'passwordFile' " + m))
            .flatMap(file -> passwords.fromFile(file, "passwordFile", report));
  }
}
