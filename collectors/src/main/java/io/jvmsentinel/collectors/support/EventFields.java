package io.jvmsentinel.collectors.support;

import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.collectors.text.ThreadNames;
import java.time.Duration;
import java.time.Instant;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;

/**
 * Lenient reads of event fields: a field the target's JDK version lacks, or a value of an
 * unexpected type, reads as "unknown" (NaN or null) instead of throwing, so a handler skips that
 * value and carries on. Text is the target's (it names its classes, threads and peers): every
 * string read here is cut to {@link SafeText#MAX_NAME} and made {@linkplain SafeText safe}.
 */
public final class EventFields {
  private EventFields() {}

  /** A numeric field (counts, bytes, fractions), NaN when absent or not a number. */
  public static double number(RecordedEvent event, String field) {
    return event.hasField(field) && event.getValue(field) instanceof Number n
        ? n.doubleValue()
        : Double.NaN;
  }

  /** A numeric field as a long, {@code -1} when absent or not a number. */
  public static long count(RecordedEvent event, String field) {
    return count(event, field, -1);
  }

  /** A numeric field as a long, {@code fallback} when absent or not a number. */
  public static long count(RecordedEvent event, String field, long fallback) {
    return event.hasField(field) && event.getValue(field) instanceof Number n
        ? n.longValue()
        : fallback;
  }

  /** A string field (or any value's text), null when absent. */
  public static String string(RecordedEvent event, String field) {
    if (!event.hasField(field)) {
      return null;
    }
    Object value = event.getValue(field);
    return value == null ? null : SafeText.name(value.toString());
  }

  /** A boolean field, null when absent. */
  public static Boolean bool(RecordedEvent event, String field) {
    return event.hasField(field) && event.getValue(field) instanceof Boolean b ? b : null;
  }

  /** A timespan field, null when absent. */
  public static Duration duration(RecordedEvent event, String field) {
    if (!event.hasField(field)) {
      return null;
    }
    try {
      return event.getDuration(field);
    } catch (IllegalArgumentException notATimespan) {
      return null;
    }
  }

  /** The event's end time (its time for instant and periodic events). */
  public static Instant time(RecordedEvent event) {
    return event.getEndTime();
  }

  /** The name of the thread that emitted the event, null when the event has none. */
  public static String threadName(RecordedEvent event) {
    if (!event.hasField("eventThread")) {
      return null;
    }
    RecordedThread thread = event.getThread();
    return thread == null ? null : SafeText.name(name(thread));
  }

  /** The Java thread id of the thread that emitted the event, -1 when there is none. */
  public static long threadId(RecordedEvent event) {
    if (!event.hasField("eventThread")) {
      return -1;
    }
    RecordedThread thread = event.getThread();
    return thread == null ? -1 : thread.getJavaThreadId();
  }

  /**
   * The thread in {@code field}, or null when the event has no such field, it is empty or it is not
   * a thread.
   */
  public static RecordedThread thread(RecordedEvent event, String field) {
    // Not getThread: a target may commit its own event under a JDK event's name with a field of
    // that name of another type, and getThread throws for it.
    return event.hasField(field) && event.getValue(field) instanceof RecordedThread thread
        ? thread
        : null;
  }

  /**
   * The thread's Java name, else its OS name, else {@link ThreadNames#UNKNOWN}; an unnamed virtual
   * thread is {@code virtual-<id>}.
   */
  public static String threadName(RecordedThread thread) {
    String name = thread == null ? null : name(thread);
    return name == null ? ThreadNames.UNKNOWN : SafeText.name(name);
  }

  /**
   * The Java name, else the OS name, else null. Virtual threads (JDK 21+) are unnamed unless their
   * code names them: JFR gives {@code ""}, which would show a lock's holder as nothing.
   */
  private static String name(RecordedThread thread) {
    String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    boolean unnamedVirtual =
        (name == null || name.isEmpty())
            && thread.hasField("virtual")
            && Boolean.TRUE.equals(thread.getValue("virtual"));
    return unnamedVirtual ? "virtual-" + thread.getJavaThreadId() : name;
  }

  /** {@code Class.method(descriptor)}: tells overloads apart. */
  public static String methodWithDescriptor(RecordedEvent event, String field) {
    if (!event.hasField(field) || !(event.getValue(field) instanceof RecordedMethod method)) {
      return null;
    }
    return SafeText.bounded(method(event, field) + method.getDescriptor(), 2 * SafeText.MAX_NAME);
  }

  /**
   * The JFR id of a method field's class, -1 when absent. Each class a class loader defines has its
   * own id: a class loaded again by a new loader has the same name and a new id.
   */
  public static long methodClassId(RecordedEvent event, String field) {
    if (!event.hasField(field)
        || !(event.getValue(field) instanceof RecordedMethod method)
        || method.getType() == null) {
      return -1;
    }
    return method.getType().getId();
  }

  /** A method field as {@code fully.qualified.Class.method}, null when absent. */
  public static String method(RecordedEvent event, String field) {
    if (!event.hasField(field) || !(event.getValue(field) instanceof RecordedMethod method)) {
      return null;
    }
    String type = method.getType() == null ? "?" : method.getType().getName();
    return SafeText.name(type + "." + method.getName());
  }
}
