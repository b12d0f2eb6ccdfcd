package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.util.List;

/**
 * Names the code that started a thread: the first frame of a {@code jdk.ThreadStart} stack (top
 * first) that is neither thread-start machinery nor executor plumbing, as {@code Class.method}.
 *
 * <p>JDK frames that are not plumbing are valid sites on purpose: for JDK-8246039 the site must be
 * {@code sun.security.ssl.TransportContext.finishHandshake}, not the application code below it.
 */
final class CreatorSite {
  /** Starts with no stack trace (disabled, empty, or no creator inside a truncated stack). */
  static final String UNKNOWN = "unknown";

  private enum Kind {
    /** Frames between the creator and the new thread on every path. */
    START,
    /** A pool or scheduler that starts threads on behalf of whoever submitted the task. */
    EXECUTOR
  }

  /**
   * A class (and its nested, anonymous and lambda classes, {@code Name$...}) whose frames are
   * skipped; {@code method} null means every method. Keep it small: each entry hides a site.
   */
  private record Plumbing(String className, String method, Kind kind) {
    boolean matches(StackFrame frame) {
      String name = frame.className();
      boolean sameClass =
          name.startsWith(className)
              && (name.length() == className.length() || name.charAt(className.length()) == '$');
      return sameClass && (method == null || method.equals(frame.methodName()));
    }
  }

  private static final String JUC = "java.util.concurrent.";

  private static final List<Plumbing> PLUMBING =
      List.of(
          new Plumbing("java.lang.Thread", null, Kind.START),
          // Thread.ofPlatform().start(...) (JDK 21+)
          new Plumbing("java.lang.ThreadBuilders", null, Kind.START),
          // JavaLangAccess.start, called by thread containers (JDK 21+: System$1.start)
          new Plumbing("java.lang.System", "start", Kind.START),
          // ThreadPoolExecutor.addWorker starts its workers through a container (JDK 21+)
          new Plumbing("jdk.internal.vm.SharedThreadContainer", null, Kind.START),
          new Plumbing("jdk.internal.vm.ThreadContainer", null, Kind.START),
          new Plumbing(JUC + "ThreadPoolExecutor", null, Kind.EXECUTOR),
          new Plumbing(JUC + "ScheduledThreadPoolExecutor", null, Kind.EXECUTOR),
          new Plumbing(JUC + "AbstractExecutorService", null, Kind.EXECUTOR),
          new Plumbing(JUC + "Executors", null, Kind.EXECUTOR),
          new Plumbing(JUC + "ForkJoinPool", null, Kind.EXECUTOR),
          new Plumbing(JUC + "ForkJoinWorkerThread", null, Kind.EXECUTOR),
          new Plumbing(JUC + "ThreadPerTaskExecutor", null, Kind.EXECUTOR),
          // supplyAsync and friends submit to a pool that may start a worker
          new Plumbing(JUC + "CompletableFuture", null, Kind.EXECUTOR),
          // new Timer() starts its thread in the constructor: the caller is the creator
          new Plumbing("java.util.Timer", null, Kind.EXECUTOR));

  private CreatorSite() {}

  /**
   * The creator site of one start. When every frame is plumbing (a pool worker starting another
   * worker) the site is the first executor frame, so the pool still shows up; when the stack is
   * missing or truncated before any creator, it is {@link #UNKNOWN}.
   *
   * @param frames the stack, top (the frame that called Thread.start) first; null when absent
   */
  static String of(List<StackFrame> frames, boolean truncated) {
    if (frames == null || frames.isEmpty()) {
      return UNKNOWN;
    }
    StackFrame firstExecutor = null;
    for (StackFrame frame : frames) {
      Kind kind = kindOf(frame);
      if (kind == null) {
        return frame.site();
      }
      if (kind == Kind.EXECUTOR && firstExecutor == null) {
        firstExecutor = frame;
      }
    }
    // A cut stack may hide the real creator below the executor frames.
    return firstExecutor == null || truncated ? UNKNOWN : firstExecutor.site();
  }

  private static Kind kindOf(StackFrame frame) {
    for (Plumbing plumbing : PLUMBING) {
      if (plumbing.matches(frame)) {
        return plumbing.kind();
      }
    }
    return null;
  }
}
