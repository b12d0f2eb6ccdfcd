package io.jvmsentinel.daemon.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A pattern as comparable text: {@link Pattern} has no equals of its own, and a reload compares
 * configuration sections, in which the same pattern text is the same filter.
 */
final class PatternText {
  private PatternText() {}

  static String of(Pattern pattern) {
    return pattern.pattern() + "/" + pattern.flags();
  }

  static Optional<String> of(Optional<Pattern> pattern) {
    return pattern.map(PatternText::of);
  }

  static Map<String, String> of(Map<String, Pattern> patterns) {
    Map<String, String> texts = new LinkedHashMap<>();
    patterns.forEach((key, pattern) -> texts.put(key, of(pattern)));
    return texts;
  }
}
