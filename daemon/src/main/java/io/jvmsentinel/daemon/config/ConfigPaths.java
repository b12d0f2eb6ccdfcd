package io.jvmsentinel.daemon.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * File paths from the configuration, resolved against the configuration file's directory. A text
 * the file system cannot take (a NUL character, found by ConfigFuzzTest) is a problem to report,
 * not an {@link InvalidPathException} escaping the loader.
 */
final class ConfigPaths {
  private ConfigPaths() {}

  /** The path, or empty after telling {@code report} why the text is not one. */
  static Optional<Path> resolve(Path baseDir, String text, Consumer<String> report) {
    try {
      return Optional.of(baseDir.resolve(text));
    } catch (InvalidPathException e) {
      // The text itself is not quoted: it may be a secret pasted into the wrong key.
      report.accept("is not a valid file path (" + e.getReason() + ")");
      return Optional.empty();
    }
  }
}
