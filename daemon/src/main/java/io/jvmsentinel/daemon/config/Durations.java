package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the short duration forms used in the configuration: {@code 500ms}, {@code 10s},
 * {@code 2m}, {@code 1h}.
 *
 * <p>ISO-8601 ({@code PT10S}) is deliberately not accepted: operators write {@code 10s}, and one
 * form keeps error messages simple. A sign is not part of the grammar, so negative durations cannot
 * be written at all; whether zero makes sense is decided by the validation of each key.
 */
public final class Durations {
  /** The hint appended to every "cannot read" message. */
  public static final String ACCEPTED_FORMS = "use e.g. 500ms, 10s, 2m, 1h";

  private static final Pattern FORM = Pattern.compile("(\\d{1,18})(ms|s|m|h)");

  private Durations() {}

  /**
   * Parses {@code <digits><unit>} with unit {@code ms}, {@code s}, {@code m} or {@code h}.
   *
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw cannotRead(text);
    }
    long amount = Long.parseLong(m.group(1));
    try {
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      };
    } catch (ArithmeticException e) {
      throw cannotRead(text);
    }
  }

  /** Writes a duration in the largest unit that represents it exactly, e.g. {@code 90s}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms != 0 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }

  private static IllegalArgumentException cannotRead(String text) {
    return new IllegalArgumentException(
        "cannot read \"" + text + "\" as a duration; " + ACCEPTED_FORMS);
  }
}
