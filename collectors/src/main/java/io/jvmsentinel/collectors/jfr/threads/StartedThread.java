package io.jvmsentinel.collectors.jfr.threads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * What the handlers use of one {@code jdk.ThreadStart}, read defensively: the event may lack a
 * stack trace (disabled, or a VM-internal start), a thread (the JVM's own threads) or fields.
 *
 * @param javaThreadId the started thread's id, or -1 when unknown
 * @param frames the stack top first, at most {@link #MAX_FRAMES}; null when the event has none
 * @param truncated whether frames are missing below the last one
 */
record StartedThread(
    long javaThreadId,
    Instant startTime,
    String threadName,
    String parentName,
    List<StackFrame> frames,
    boolean truncated) {

  /** JFR's default stack depth: deeper stacks are cut here too, which bounds sample memory. */
  static final int MAX_FRAMES = 64;

  static final String UNKNOWN_THREAD = "unknown";

  static StartedThread of(RecordedEvent event) {
    RecordedThread thread = thread(event, "thread");
    RecordedThread parent = thread(event, "parentThread");
    RecordedStackTrace stack = event.getStackTrace();
    List<StackFrame> frames = null;
    boolean truncated = false;
    if (stack != null && stack.getFrames() != null) {
      List<RecordedFrame> recorded = stack.getFrames();
      frames = new ArrayList<>(Math.min(recorded.size(), MAX_FRAMES));
      for (RecordedFrame frame : recorded) {
        if (frames.size() == MAX_FRAMES) {
          break;
        }
        frames.add(StackFrame.of(frame));
      }
      truncated = stack.isTruncated() || recorded.size() > MAX_FRAMES;
    }
    return new StartedThread(
        thread == null ? -1 : thread.getJavaThreadId(),
        event.getStartTime(),
        name(thread),
        name(parent),
        frames,
        truncated);
  }

  /** The thread in {@code field}, or null when the event has no such field or it is empty. */
  static RecordedThread thread(RecordedEvent event, String field) {
    return event.hasField(field) ? event.getThread(field) : null;
  }

  private static String name(RecordedThread thread) {
    if (thread == null) {
      return UNKNOWN_THREAD;
    }
    String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    return name == null ? UNKNOWN_THREAD : name;
  }
}
