package io.jvmsentinel.collectors.jfr.handler;

import io.micrometer.core.instrument.binder.MeterBinder;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Turns one JFR event type of a target into meters and detection signals.
 *
 * <p>Handlers are bound once ({@link #bindTo}) and live as long as the daemon; the stream under
 * them comes and goes with the target's connection. {@link #accept} runs on the stream's dispatch
 * thread, one event at a time, and must be quick: no I/O, no blocking. A handler that throws is
 * counted and logged by the stream, which carries on with the next event.
 */
public interface JfrEventHandler extends MeterBinder {

  /** The JFR event type name, e.g. {@code jdk.ThreadStart}. */
  String eventName();

  /** How the event is enabled on the target. */
  EventSettings settings();

  void accept(RecordedEvent event);

  /**
   * Whether the stream may hand this handler events it is too far behind on to {@link #shed}
   * instead of {@link #accept}. Hot events (thread starts and ends) say yes; rare events that
   * detection needs in full (code cache full, statistics) keep the default no.
   */
  default boolean sheddable() {
    return false;
  }

  /**
   * The cheap path for an event that arrived later than the stream's lag bound: keep the exact
   * counts that rates and detection read, skip everything costly (stack traces, per-site state).
   * Only called when {@link #sheddable()}.
   */
  default void shed(RecordedEvent event) {}

  /** The stream stopped (target lost or restarted): drop per-stream state, keep meters. */
  default void streamStopped() {}
}
