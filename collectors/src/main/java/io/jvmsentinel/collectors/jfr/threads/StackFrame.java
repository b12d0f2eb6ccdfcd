package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.text.SafeText;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;

/** One frame of a thread-start stack, detached from the recording (so tests can build them). */
record StackFrame(String className, String methodName, int line) {
  /** Cap on a rendered frame or site: class names are the target's to choose, memory is ours. */
  static final int MAX_TEXT = 256;

  static StackFrame of(RecordedFrame frame) {
    RecordedMethod method = frame == null ? null : frame.getMethod();
    if (method == null || method.getType() == null) {
      return new StackFrame("unknown", "unknown", -1);
    }
    return new StackFrame(method.getType().getName(), method.getName(), frame.getLineNumber());
  }

  /** The creator-site name, {@code fully.qualified.Class.method}. */
  String site() {
    return clean(className + "." + methodName);
  }

  /** {@code Class.method:line}, or {@code Class.method} when the line is unknown. */
  String text() {
    return line >= 0 ? clean(className + "." + methodName + ":" + line) : site();
  }

  /**
   * Bytecode names may hold spaces, semicolons and control characters (only {@code . ; [ /} are
   * banned in unqualified names, and not by every JVM language); the collapsed-stack format splits
   * on {@code ;} and lines, and bidirectional controls disguise a name, so those become {@code _},
   * and very long names are cut.
   */
  private static String clean(String text) {
    String cut = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
    StringBuilder out = null;
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (c == ';' || SafeText.unsafe(c)) {
        if (out == null) {
          out = new StringBuilder(cut);
        }
        out.setCharAt(i, '_');
      }
    }
    return out == null ? cut : out.toString();
  }
}
