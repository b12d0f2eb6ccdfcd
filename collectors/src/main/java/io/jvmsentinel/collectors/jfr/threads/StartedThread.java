package io.jvmsentinel.collectors.jfr.threads;

import java.time.Instant;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * What the handlers use of one {@code jdk.ThreadStart}, read defensively: the event may lack a
 * stack trace (disabled, or a VM-internal start), a thread (the JVM's own threads) or fields.
 *
 * @param javaThreadId the started thread's id, or -1 when unknown
 * @param frames the stack top first, at most {@link #MAX_FRAMES}; null when the event has none
 * @param truncated whether frames are missing below the last one
 */
public record StartedThread(
    long javaThreadId,
    Instant startTime,
    String threadName,
    String parentName,
    List<StackFrame> frames,
    boolean truncated) {

  static final int MAX_FRAMES = StackFrame.MAX_FRAMES;

  static final String UNKNOWN_THREAD = "unknown";

  static StartedThread of(RecordedEvent event) {
    RecordedThread thread = thread(event, "thread");
    RecordedThread parent = thread(event, "parentThread");
    StackFrame.Stack stack = StackFrame.Stack.of(event.getStackTrace());
    return new StartedThread(
        thread == null ? -1 : thread.getJavaThreadId(),
        event.getStartTime(),
        name(thread),
        name(parent),
        stack.frames(),
        stack.truncated());
  }

  /** The thread in {@code field}, or null when the event has no such field or it is empty. */
  public static RecordedThread thread(RecordedEvent event, String field) {
    return event.hasField(field) ? event.getThread(field) : null;
  }

  /** A thread name with digits as {@code #}, cleaned and cut, as creator sites report names. */
  public static String namePattern(String name) {
    return CreatorSites.pattern(name);
  }

  /** The thread's Java name, else its OS name, else "unknown". */
  public static String name(RecordedThread thread) {
    if (thread == null) {
      return UNKNOWN_THREAD;
    }
    String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    return name == null ? UNKNOWN_THREAD : name;
  }
}
