package io.jvmsentinel.daemon.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads a secret configured as a pair of keys, {@code <name>Env} or {@code <name>File}: exactly one
 * of them. Messages name the key path and the variable or file, never the secret.
 */
final class SecretKeys {
  private final Problems problems;
  private final PasswordReader secrets;
  private final Path baseDir;

  SecretKeys(Problems problems, PasswordReader secrets, Path baseDir) {
    this.problems = problems;
    this.secrets = secrets;
    this.baseDir = baseDir;
  }

  /** The secret of {@code <path>.<name>Env|File}, or empty with the problem recorded. */
  Optional<Secret> read(String path, String name, String envVar, String file) {
    String envKey = name + "Env";
    String fileKey = name + "File";
    if (problems.unreadable(path + "." + envKey) || problems.unreadable(path + "." + fileKey)) {
      return Optional.empty();
    }
    if (envVar != null && file != null) {
      problems.add("'" + path + "': set either '" + envKey + "' or '" + fileKey + "', not both");
      return Optional.empty();
    }
    if (envVar == null && file == null) {
      problems.add(
          "'"
              + path
              + "' needs '"
              + envKey
              + "' or '"
              + fileKey
              + "'; the "
              + name
              + " is a secret and is never written in the configuration file");
      return Optional.empty();
    }
    Consumer<String> report = message -> problems.add("'" + path + "': " + message);
    return envVar != null
        ? secrets.fromEnv(envVar, envKey, report)
        : ConfigPaths.resolve(baseDir, file, m -> report.accept("'" + fileKey + "' " + m))
            .flatMap(resolved -> secrets.fromFile(resolved, fileKey, report));
  }

  Optional<Path> resolve(String file, Consumer<String> report) {
    return ConfigPaths.resolve(baseDir, file, report);
  }
}
