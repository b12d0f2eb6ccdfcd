package io.jvmsentinel.collectors.jfr.handler;

/**
 * A handler whose event's stack traces are worth recording but too costly to record all the time
 * under load: while the stream's sampling plan says so ({@link LoadCountingHandler}), its stack
 * traces are recorded only in short sampling windows, and the stream tells the handler so it counts
 * stackless events without attributing them to a site.
 */
public interface StackSampledHandler extends JfrEventHandler {

  /**
   * True while stack traces are recorded only in sampling windows: events without a stack are then
   * counted but not attributed to a site. False while every event carries its stack.
   */
  void stacksSampled(boolean sampled);
}
