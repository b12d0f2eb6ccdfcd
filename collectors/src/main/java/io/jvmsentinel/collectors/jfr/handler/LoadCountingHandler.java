package io.jvmsentinel.collectors.jfr.handler;

/**
 * The stack-sampled handler whose event count measures the load the stream adapts to (thread
 * starts): its rate decides when every {@link StackSampledHandler} records stacks only in sampling
 * windows, and when the stream pauses for a storm.
 */
public interface LoadCountingHandler extends StackSampledHandler {

  /** Events seen since the daemon started, with or without a stack; thread-safe. */
  long totalEvents();
}
