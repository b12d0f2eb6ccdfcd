package io.jvmsentinel.daemon.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects every problem of one load: those at a place in the file (reported in file order, first)
 * and those of the rules (in the order they were checked). Also remembers which key paths held a
 * value that could not be read, so the rules can skip them instead of piling a second, misleading
 * problem ("pid is required") on top of the first ("pid: expected an integer").
 */
final class Problems {
  private record AtPlace(int line, int column, String message) {}

  private final List<AtPlace> atPlaces = new ArrayList<>();
  private final List<String> messages = new ArrayList<>();
  private final Set<String> unreadablePaths = new HashSet<>();

  void add(String message) {
    messages.add(message);
  }

  /**
   * A problem with the value at {@code path} (e.g. {@code targets[0].pid}), at 1-based {@code
   * line:column} of the file; {@code message} is complete, place included. A null path is a problem
   * of the document, not of a value.
   */
  void addAt(int line, int column, String path, String message) {
    if (path != null) {
      unreadablePaths.add(path);
    }
    atPlaces.add(new AtPlace(line, column, message));
  }

  /** True if the value at {@code path}, or anything inside it, could not be read. */
  boolean unreadable(String path) {
    return unreadablePaths.stream().anyMatch(p -> ConfigNode.within(p, path));
  }

  /** True if the value at exactly {@code path} could not be read. */
  boolean unreadableAt(String path) {
    return unreadablePaths.contains(path);
  }

  /** How many problems of the rules so far: a reader compares before and after one entry. */
  int count() {
    return messages.size();
  }

  void throwIfAny() throws ConfigException {
    if (atPlaces.isEmpty() && messages.isEmpty()) {
      return;
    }
    List<String> all = new ArrayList<>();
    atPlaces.stream()
        .sorted(Comparator.comparingInt(AtPlace::line).thenComparingInt(AtPlace::column))
        .forEach(p -> all.add(p.message()));
    all.addAll(messages);
    throw new ConfigException(all);
  }
}
