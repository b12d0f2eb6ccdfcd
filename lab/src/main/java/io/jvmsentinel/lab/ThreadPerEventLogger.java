package io.jvmsentinel.lab;

/**
 * A second thread-per-unit-of-work anti-pattern, unrelated to TLS: a logger that hands each event
 * to a new thread to write it. {@link #log} is the creator site the first storm of {@code
 * storm-after-storm} must be blamed on, and the second must not.
 */
final class ThreadPerEventLogger {

  /** Starts a new short-lived thread that writes one event and ends. */
  void log(long eventId) {
    Thread writer = LabThreads.daemon("lab-log-writer-" + eventId, () -> write(eventId));
    writer.start();
  }

  private static void write(long eventId) {
    Blackhole.consume(CpuWork.tiny(eventId));
  }
}
