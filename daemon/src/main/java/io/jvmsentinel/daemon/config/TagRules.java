package io.jvmsentinel.daemon.config;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/** What a tag may look like: tags become Prometheus labels, so Prometheus sets the rules. */
final class TagRules {
  static final String RESERVED = "target";
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private TagRules() {}

  /** Whether {@code name} may be a tag key (a Prometheus label name). */
  static boolean isLabelName(String name) {
    return LABEL_NAME.matcher(name).matches();
  }

  /**
   * Reports every bad key or value of {@code tags}.
   *
   * @param key how to name the section in messages, e.g. {@code 'tags'}
   * @param skip entries already reported as unreadable
   */
  static void check(
      Map<String, String> tags, String key, List<String> skip, Consumer<String> problems) {
    tags.forEach(
        (name, value) -> {
          if (skip.contains(name)) {
            return;
          }
          if (!LABEL_NAME.matcher(name).matches()) {
            problems.accept(
                key
                    + ": tag key '"
                    + name
                    + "' is not a valid Prometheus label name; use [a-zA-Z_][a-zA-Z0-9_]*");
          } else if (name.startsWith("__")) {
            problems.accept(
                key + ": tag key '" + name + "' starts with '__', which Prometheus reserves");
          } else if (name.equals(RESERVED)) {
            problems.accept(
                key + ": tag key 'target' is reserved: the daemon sets it to the target's name");
          }
          if (value == null) {
            problems.accept(key + ": tag '" + name + "' has no value");
          }
        });
  }
}
