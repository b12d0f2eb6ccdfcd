package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.EventFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.LongConsumer;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Counts certificate path validations ({@code jdk.X509Validation}: one event per certificate of a
 * validated chain, {@code certificatePosition} 1..n, one {@code validationCounter} per chain) and
 * marks the validating thread in {@link RecentValidations}, so {@link TlsHandshakeHandler} can tell
 * full handshakes from resumed ones. Each validated certificate ({@code certificateId}) is reported
 * as used, so {@link X509CertificateHandler} exports its expiry.
 */
public final class X509ValidationHandler implements JfrEventHandler {

  public static final String EVENT = "jdk.X509Validation";

  private final Tags tags;
  private final RecentValidations validations;
  private final LongConsumer certificateUsed;
  private volatile Counter certificates;

  /**
   * @param certificateUsed told the {@code certificateId} of each validated certificate, typically
   *     {@link X509CertificateHandler#markUsed}
   */
  public X509ValidationHandler(
      Tags tags, RecentValidations validations, LongConsumer certificateUsed) {
    this.tags = tags;
    this.validations = validations;
    this.certificateUsed = certificateUsed;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    certificates = Metric.JVM_TLS_CERTIFICATE_VALIDATIONS.counter(registry, tags);
  }

  @Override
  public void accept(RecordedEvent event) {
    Counter counter = certificates;
    if (counter != null) {
      counter.increment();
    }
    long threadId = EventFields.threadId(event);
    if (threadId >= 0) {
      validations.validated(threadId, EventFields.time(event));
    }
    long certificateId = CertificateIds.of(event);
    if (certificateId != 0) {
      certificateUsed.accept(certificateId);
    }
  }

  @Override
  public void streamStopped() {
    validations.clear();
  }
}
