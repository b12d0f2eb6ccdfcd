package io.jvmsentinel.collectors.text;

/**
 * Text from a target (thread names, class and method names) or from a client (request paths) that
 * ends up in labels, reports and log lines. Control characters break lines and formats; Unicode
 * bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and friends) make a name read differently
 * from what it is (CVE-2021-42574, "Trojan Source"); zero-width characters (U+200B and friends)
 * make two different names look the same; U+2028 and U+2029 end a line in JavaScript and in some
 * log viewers. All are replaced, never interpreted.
 */
public final class SafeText {
  /**
   * Cap on one name the target chooses (a class, method, thread, pool, peer, cause): longer than
   * any real one, short enough that a label, a log line or a notification stays readable and the
   * memory held per distinct name stays small.
   */
  public static final int MAX_NAME = 256;

  private SafeText() {}

  /**
   * True for a C0/C1 control, a Unicode line separator, a bidirectional formatting character or a
   * zero-width one.
   */
  public static boolean unsafe(char c) {
    return Character.isISOControl(c)
        || c == '\u061c' // ARABIC LETTER MARK
        || (c >= '\u200b' && c <= '\u200d') // ZERO WIDTH SPACE, NON-JOINER, JOINER
        || c == '\u2060' // WORD JOINER
        || c == '\ufeff' // ZERO WIDTH NO-BREAK SPACE (byte order mark)
        || c == '\u200e' // LEFT-TO-RIGHT MARK
        || c == '\u200f' // RIGHT-TO-LEFT MARK
        || c == '\u2028' // LINE SEPARATOR
        || c == '\u2029' // PARAGRAPH SEPARATOR
        || (c >= '\u202a' && c <= '\u202e') // embeddings and overrides
        || (c >= '\u2066' && c <= '\u2069'); // isolates
  }

  /** The text with every {@linkplain #unsafe unsafe} character replaced by {@code _}. */
  public static String of(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      if (unsafe(text.charAt(i))) {
        if (out == null) {
          out = new StringBuilder(text);
        }
        out.setCharAt(i, '_');
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * The text cut to at most {@code max} characters (never between the two halves of a surrogate
   * pair), then {@linkplain #of made safe}; null stays null. Every name a target sends passes here
   * where it enters, so labels, reports and the snapshot checks all see the same text.
   */
  public static String bounded(String text, int max) {
    if (text == null) {
      return null;
    }
    String cut = text;
    if (text.length() > max) {
      int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
      cut = text.substring(0, end);
    }
    return of(cut);
  }

  /** {@link #bounded(String, int)} at {@link #MAX_NAME}. */
  public static String name(String text) {
    return bounded(text, MAX_NAME);
  }
}
