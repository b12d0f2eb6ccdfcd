package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.support.EventFields;
import jdk.jfr.consumer.RecordedEvent;

/** The {@code certificateId} that ties TLS and X.509 events to one certificate. */
final class CertificateIds {
  private CertificateIds() {}

  /**
   * The {@code certificateId} field, comparable across event types and JDKs, or 0 when missing. The
   * JDK derives it from the certificate's 32-bit hash code: JDK 17 writes it as a signed int, JDK
   * 25 as its unsigned value in a long. A negative int-range value is therefore read as unsigned,
   * so both spellings of one certificate give the same id.
   */
  static long of(RecordedEvent event) {
    long id = EventFields.count(event, "certificateId", 0);
    return id < 0 && id >= Integer.MIN_VALUE ? Integer.toUnsignedLong((int) id) : id;
  }
}
