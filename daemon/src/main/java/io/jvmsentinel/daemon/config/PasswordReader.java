package io.jvmsentinel.daemon.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads a password from an environment variable or a file, never from the configuration itself:
 * configuration files get committed, printed and attached to tickets. Messages name the variable or
 * the file, never the content.
 */
final class PasswordReader {
  private final Function<String, String> env;

  PasswordReader(Function<String, String> env) {
    this.env = env;
  }

  /** The variable's value; messages name {@code key}, the key that names the variable. */
  Optional<Secret> fromEnv(String variable, String key, Consumer<String> problems) {
    String value = env.apply(variable);
    if (value == null) {
      problems.accept("environment variable '" + variable + "' (" + key + ") is not set");
      return Optional.empty();
    }
    if (value.isEmpty()) {
      problems.accept("environment variable '" + variable + "' (" + key + ") is empty");
      return Optional.empty();
    }
    return Optional.of(Secret.of(value));
  }

  /**
   * The file's content without its trailing line break(s), as {@code echo pw > file} leaves one;
   * messages name {@code key}, the key that names the file.
   */
  Optional<Secret> fromFile(Path file, String key, Consumer<String> problems) {
    String value;
    try {
      value = Files.readString(file).replaceFirst("[\\r\\n]+\\z", "");
    } catch (NoSuchFileException e) {
      problems.accept(key + " " + file + " does not exist");
      return Optional.empty();
    } catch (AccessDeniedException e) {
      problems.accept(key + " " + file + " cannot be read: permission denied");
      return Optional.empty();
    } catch (IOException e) {
      // The class name only: some exception messages quote the input.
      problems.accept(key + " " + file + " cannot be read: " + e.getClass().getSimpleName());
      return Optional.empty();
    }
    if (value.isEmpty()) {
      problems.accept(key + " " + file + " is empty");
      return Optional.empty();
    }
    return Optional.of(Secret.of(value));
  }
}
