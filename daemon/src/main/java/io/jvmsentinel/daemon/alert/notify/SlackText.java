package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.collectors.text.SafeText;

/**
 * Text a target may have chosen (class, method, thread and pool names, peers, pod names) made inert
 * for Slack. Slack's mrkdwn has no escape character: {@code *bold*}, {@code _italic_}, {@code
 * ~strike~} and backticks take effect wherever they stand, and only {@code &}, {@code <} and {@code
 * >} can be escaped (as entities). So target text goes either into {@code plain_text} objects
 * ({@link #plain}), which Slack does not parse, or into inline code spans ({@link #code}) whose
 * content cannot end them: mrkdwn inside a code span is shown as typed, and a backtick in the value
 * is shown as a look-alike that does not close the span. Every form drops control, line separator,
 * bidirectional and zero-width characters first ({@link SafeText}), so a name stays on one line and
 * reads as what it is.
 */
final class SlackText {
  // MODIFIER LETTER GRAVE ACCENT: looks like a backtick, is no mrkdwn syntax.
  private static final char BACKTICK_LOOKALIKE = '\u02cb';
  // A value longer than any real name is cut, so a few of them fit a block of 3,000 characters.
  static final int CODE_MAX = 200;

  private SlackText() {}

  /** For a {@code plain_text} object: cleaned, otherwise as it is. */
  static String plain(String text) {
    return SafeText.of(text);
  }

  /**
   * An inline code span holding the text, at most {@value #CODE_MAX} characters as sent (entities
   * counted); nothing in it is mrkdwn, a link or a mention.
   */
  static String code(String text) {
    String clean = SafeText.of(text).replace('`', BACKTICK_LOOKALIKE).strip();
    StringBuilder inner = new StringBuilder();
    for (int i = 0; i < clean.length(); ) {
      int cp = clean.codePointAt(i);
      String escaped = escape(Character.toString(cp));
      boolean last = i + Character.charCount(cp) == clean.length();
      if (inner.length() + escaped.length() > (last ? CODE_MAX : CODE_MAX - 1)) {
        inner.append('…');
        break;
      }
      inner.append(escaped);
      i += Character.charCount(cp);
    }
    // Slack shows an empty span as two backticks.
    return inner.length() == 0 ? "(empty)" : "`" + inner + "`";
  }

  /**
   * For the message's top-level {@code text}, which Slack reads as mrkdwn but which notifications
   * show as typed, so a code span would show its backticks: the four mrkdwn markers become
   * look-alikes that format nothing, and the three control characters entities (no link, no
   * mention).
   */
  static String fallback(String text) {
    return escape(
        SafeText.of(text)
            .replace('*', '\u2217') // ASTERISK OPERATOR
            .replace('_', '\uff3f') // FULLWIDTH LOW LINE
            .replace('~', '\u223c') // TILDE OPERATOR
            .replace('`', BACKTICK_LOOKALIKE));
  }

  /** Slack's three control characters as entities: in mrkdwn they start links and mentions. */
  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
