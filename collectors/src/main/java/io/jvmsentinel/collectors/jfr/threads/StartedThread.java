package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.support.EventFields;
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

  static StartedThread of(RecordedEvent event) {
    RecordedThread thread = EventFields.thread(event, "thread");
    RecordedThread parent = EventFields.thread(event, "parentThread");
    StackFrame.Stack stack = StackFrame.Stack.of(event.getStackTrace());
    return new StartedThread(
        thread == null ? -1 : thread.getJavaThreadId(),
        event.getStartTime(),
        EventFields.threadName(thread),
        EventFields.threadName(parent),
        stack.frames(),
        stack.truncated());
  }
}
