package io.jvmsentinel.collectors.text;

/** Thread names as the collectors report them: bounded, safe, and grouped by kind. */
public final class ThreadNames {
  /** The name reported for a thread JFR does not name. */
  public static final String UNKNOWN = "unknown";

  private static final int MAX_NAME = 128;

  private ThreadNames() {}

  /**
   * A thread name with each run of digits as {@code #} ({@code pool-3-thread-17} becomes {@code
   * pool-#-thread-#}), control and bidirectional characters as {@code _}, cut to a bounded length,
   * so thread numbers do not spread one kind of thread over many names.
   */
  public static String pattern(String name) {
    if (name == null) {
      return UNKNOWN;
    }
    StringBuilder out = new StringBuilder(Math.min(name.length(), MAX_NAME));
    boolean inDigits = false;
    for (int i = 0; i < name.length() && out.length() < MAX_NAME; i++) {
      char c = name.charAt(i);
      boolean digit = c >= '0' && c <= '9';
      if (!digit) {
        out.append(SafeText.unsafe(c) ? '_' : c);
      } else if (!inDigits) {
        out.append('#');
      }
      inDigits = digit;
    }
    return out.toString();
  }
}
