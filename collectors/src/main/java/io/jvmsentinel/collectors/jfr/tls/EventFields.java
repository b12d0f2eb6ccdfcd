package io.jvmsentinel.collectors.jfr.tls;

import java.time.Instant;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * Lenient field access: event layouts differ between JDKs ({@code certificateId} is an int on 17
 * and a long on 25; TLS events have no {@code duration} on 25), and a handler must never throw on
 * surprising data. Missing or mistyped fields read as null or a fallback.
 */
final class EventFields {

  private EventFields() {}

  static String string(RecordedEvent event, String field) {
    if (!event.hasField(field)) {
      return null;
    }
    try {
      return event.getString(field);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static long number(RecordedEvent event, String field, long fallback) {
    if (!event.hasField(field)) {
      return fallback;
    }
    try {
      return event.getLong(field);
    } catch (IllegalArgumentException e) {
      return fallback;
    }
  }

  /**
   * The {@code certificateId} field, comparable across event types and JDKs, or 0 when missing. The
   * JDK derives it from the certificate's 32-bit hash code: JDK 17 writes it as a signed int, JDK
   * 25 as its unsigned value in a long. A negative int-range value is therefore read as unsigned,
   * so both spellings of one certificate give the same id.
   */
  static long certificateId(RecordedEvent event) {
    long id = number(event, "certificateId", 0);
    return id < 0 && id >= Integer.MIN_VALUE ? Integer.toUnsignedLong((int) id) : id;
  }

  /** The Java thread id of the thread that emitted the event, or -1 if there is none. */
  static long threadId(RecordedEvent event) {
    try {
      RecordedThread thread = event.getThread();
      return thread == null ? -1 : thread.getJavaThreadId();
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** When the event ended: for instant events (all TLS events on JDK 25) its start time. */
  static Instant end(RecordedEvent event) {
    try {
      return event.getEndTime();
    } catch (IllegalArgumentException e) {
      return Instant.EPOCH;
    }
  }
}
