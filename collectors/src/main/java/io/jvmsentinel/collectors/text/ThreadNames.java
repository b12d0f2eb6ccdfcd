package io.jvmsentinel.collectors.text;

/** Thread names as the collectors report them: bounded, safe, and grouped by kind. */
public final class ThreadNames {
  /** The name reported for a thread JFR does not name. */
  public static final String UNKNOWN = "unknown";

  private static final int MAX_NAME = 128;

  /**
   * How much of a name is read. The target chooses its thread names and this runs on every thread
   * start, so a huge name costs no more than this; a word running past it is judged on what was
   * read.
   */
  private static final int MAX_READ = 8 * MAX_NAME;

  private ThreadNames() {}

  /**
   * A thread name with what varies between threads of one kind as {@code #}: each run of digits
   * ({@code pool-3-thread-17} becomes {@code pool-#-thread-#}), and each word of four or more hex
   * digits with a digit in it, or of any after {@code 0x} (ids and UUIDs: {@code req-3f2a9c1e}
   * becomes {@code req-#}). Control and bidirectional characters become {@code _}, and the name is
   * cut to a bounded length, so numbered or uniquely named threads do not spread one kind over many
   * names. Only the name's first {@value #MAX_READ} characters are read.
   */
  public static String pattern(String name) {
    if (name == null) {
      return UNKNOWN;
    }
    int length = Math.min(name.length(), MAX_READ);
    StringBuilder out = new StringBuilder(Math.min(length, MAX_NAME));
    int i = 0;
    while (i < length && out.length() < MAX_NAME) {
      char c = name.charAt(i);
      if (!letterOrDigit(c)) {
        out.append(SafeText.unsafe(c) ? '_' : c);
        i++;
        continue;
      }
      int end = i + 1;
      while (end < length && letterOrDigit(name.charAt(end))) {
        end++;
      }
      appendWord(name, i, end, out);
      i = end;
    }
    if (out.length() > MAX_NAME) {
      out.setLength(MAX_NAME);
    }
    return out.toString();
  }

  /** The word {@code name[from, to)}: {@code #} if it is a hex id, else with its digits as such. */
  private static void appendWord(String name, int from, int to, StringBuilder out) {
    if (hexId(name, from, to)) {
      out.append('#');
      return;
    }
    boolean inDigits = false;
    for (int k = from; k < to; k++) {
      char c = name.charAt(k);
      boolean digit = c >= '0' && c <= '9';
      if (!digit) {
        out.append(c);
      } else if (!inDigits) {
        out.append('#');
      }
      inDigits = digit;
    }
  }

  /**
   * Four or more hex digits with a digit among them, or any after {@code 0x}: short words such as
   * {@code C2} keep their letter.
   */
  private static boolean hexId(String name, int from, int to) {
    boolean prefixed =
        to - from > 2 && name.charAt(from) == '0' && (name.charAt(from + 1) | 0x20) == 'x';
    int start = prefixed ? from + 2 : from;
    if (!prefixed && to - from < 4) {
      return false;
    }
    boolean digit = false;
    for (int k = start; k < to; k++) {
      char c = name.charAt(k);
      if (c >= '0' && c <= '9') {
        digit = true;
      } else if ((c | 0x20) < 'a' || (c | 0x20) > 'f') {
        return false;
      }
    }
    return digit;
  }

  /** ASCII only: the words ids are made of. */
  private static boolean letterOrDigit(char c) {
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  }
}
