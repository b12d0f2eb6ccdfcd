package io.jvmsentinel.collectors.jfr.locks;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.util.List;

/**
 * Names the code that blocked: the first frame of a monitor-enter or park stack (top first) that is
 * not lock machinery, as {@code Class.method}. For a monitor enter that is the method holding the
 * {@code synchronized} block; for a park it is the caller of {@code lock()}.
 */
final class BlockedSite {
  static final String UNKNOWN = "unknown";

  private static final List<String> MACHINERY =
      List.of(
          "jdk.internal.misc.Unsafe",
          "sun.misc.Unsafe",
          "java.util.concurrent.locks.",
          "java.util.concurrent.Semaphore");

  private BlockedSite() {}

  static String of(StackFrame.Stack stack) {
    if (stack.frames() == null) {
      return UNKNOWN;
    }
    for (StackFrame frame : stack.frames()) {
      if (MACHINERY.stream().noneMatch(frame.className()::startsWith)) {
        return frame.site();
      }
    }
    return UNKNOWN;
  }
}
