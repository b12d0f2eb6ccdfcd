package io.jvmsentinel.collectors.jfr.handler;

/**
 * A handler whose event's stack traces are worth recording but too costly to record all the time at
 * high rates: the stream switches them to short sampling windows while {@link #totalEvents()} grows
 * fast, and tells the handler so it counts stackless events without attributing them.
 */
public interface StackSampledHandler extends JfrEventHandler {

  /** Events seen since the daemon started, with or without a stack; thread-safe. */
  long totalEvents();

  /**
   * True while stack traces are recorded only in sampling windows: events without a stack are then
   * counted but not attributed to a site. False while every event carries its stack.
   */
  void stacksSampled(boolean sampled);
}
