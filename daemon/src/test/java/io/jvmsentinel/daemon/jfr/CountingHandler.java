package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;

/** A handler for stream tests: counts the events it gets, no stack traces. */
public final class CountingHandler implements JfrEventHandler {
  public final AtomicLong events = new AtomicLong();
  private final String name;

  public CountingHandler(String name) {
    this.name = name;
  }

  @Override
  public String eventName() {
    return name;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.instant(false);
  }

  @Override
  public void accept(RecordedEvent event) {
    events.incrementAndGet();
  }

  @Override
  public void bindTo(MeterRegistry registry) {}
}
