package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.EventSettings;
import io.jvmsentinel.collectors.jfr.JfrEventHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Counts certificate path validations ({@code jdk.X509Validation}: one event per certificate of a
 * validated chain, {@code certificatePosition} 1..n, one {@code validationCounter} per chain) and
 * marks the validating thread in {@link RecentValidations}, so {@link TlsHandshakeHandler} can tell
 * full handshakes from resumed ones.
 */
public final class X509ValidationHandler implements JfrEventHandler {

  public static final String EVENT = "jdk.X509Validation";

  private final Tags tags;
  private final RecentValidations validations;
  private volatile Counter certificates;

  public X509ValidationHandler(Tags tags, RecentValidations validations) {
    this.tags = tags;
    this.validations = validations;
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
      validations.validated(threadId, EventFields.end(event));
    }
  }

  @Override
  public void streamStopped() {
    validations.clear();
  }
}
