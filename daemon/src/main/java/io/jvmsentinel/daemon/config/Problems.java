package io.jvmsentinel.daemon.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects every problem of one load. Also remembers which key paths held a value that could not be
 * read, so validation can skip them instead of piling a second, misleading problem ("pid is
 * required") on top of the first ("pid: expected an integer").
 */
final class Problems {
  private final List<String> messages = new ArrayList<>();
  private final Set<String> unreadablePaths = new HashSet<>();

  void add(String message) {
    messages.add(message);
  }

  /** A problem with the value at {@code path} (e.g. {@code targets[0].pid}). */
  void addUnreadable(String path, String message) {
    unreadablePaths.add(path);
    messages.add(message);
  }

  /** True if the value at {@code path}, or anything inside it, could not be read. */
  boolean unreadable(String path) {
    for (String p : unreadablePaths) {
      if (p.equals(path) || p.startsWith(path + ".") || p.startsWith(path + "[")) {
        return true;
      }
    }
    return false;
  }

  /** True if the value at exactly {@code path} could not be read. */
  boolean unreadableAt(String path) {
    return unreadablePaths.contains(path);
  }

  /** How many problems so far: a validator compares before and after one entry. */
  int count() {
    return messages.size();
  }

  boolean isEmpty() {
    return messages.isEmpty();
  }

  void throwIfAny() throws ConfigException {
    if (!messages.isEmpty()) {
      throw new ConfigException(messages);
    }
  }
}
