package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Synthetic thread starts, for what no small recording can show (thousands of sites). */
final class Starts {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private Starts() {}

  /** A start whose stack is the given frames, top first, each {@code Class.method:line}. */
  static StartedThread start(long id, String threadName, String... frames) {
    List<StackFrame> stack = new ArrayList<>();
    for (String frame : frames) {
      int dot = frame.lastIndexOf('.');
      int colon = frame.lastIndexOf(':');
      stack.add(
          new StackFrame(
              frame.substring(0, dot),
              frame.substring(dot + 1, colon),
              Integer.parseInt(frame.substring(colon + 1))));
    }
    return new StartedThread(id, T0, threadName, "main", stack, false);
  }

  /** A start at creator site {@code site} (a {@code Class.method}), from a one-frame stack. */
  static StartedThread at(String site) {
    return start(-1, "t-1", site + ":1");
  }
}
