package io.jvmsentinel.collectors.jfr.locks;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.collectors.text.ThreadNames;
import java.time.Instant;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * What the contention table uses of one monitor-enter or park event, read defensively and detached
 * from the recording (so tests can build them).
 *
 * @param className the monitor's or blocker's class, {@link #UNKNOWN} when the event has none
 * @param nanos how long the thread waited
 * @param end when it stopped waiting (acquired the monitor)
 * @param threadId the waiting thread's Java id, -1 when unknown
 * @param ownerName the thread that held the monitor last before this one got it, as a name pattern
 *     (digits as {@code #}); null when unknown (parks, events without {@code previousOwner})
 */
public record BlockedEvent(
    ContentionKind kind,
    String className,
    long nanos,
    Instant end,
    long threadId,
    String ownerName,
    StackFrame.Stack stack) {
  public static final String UNKNOWN = "unknown";

  static BlockedEvent of(RecordedEvent event, ContentionKind kind) {
    RecordedClass type =
        event.hasField(kind.classField()) ? event.getValue(kind.classField()) : null;
    RecordedThread thread = event.getThread();
    RecordedThread owner = EventFields.thread(event, "previousOwner");
    return new BlockedEvent(
        kind,
        className(type),
        event.getDuration().toNanos(),
        event.getEndTime(),
        thread == null ? -1 : thread.getJavaThreadId(),
        owner == null ? null : ThreadNames.pattern(EventFields.threadName(owner)),
        StackFrame.Stack.of(event.getStackTrace()));
  }

  /** Class names are the target's to choose: cut and cleaned before they become a tag. */
  public static String className(RecordedClass type) {
    if (type == null || type.getName() == null) {
      return UNKNOWN;
    }
    return SafeText.name(type.getName());
  }
}
