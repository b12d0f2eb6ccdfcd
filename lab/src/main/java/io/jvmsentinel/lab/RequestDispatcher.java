package io.jvmsentinel.lab;

/**
 * The anti-pattern under test: one new platform thread per unit of work. {@link #dispatch} is the
 * creator site that {@code jdk.ThreadStart} stack traces must point at.
 */
final class RequestDispatcher {

  /** Starts a new short-lived thread that handles one request and ends. */
  void dispatch(long requestId) {
    Thread thread = LabThreads.daemon("lab-request-" + requestId, () -> handle(requestId));
    thread.start();
  }

  private static void handle(long requestId) {
    Blackhole.consume(CpuWork.tiny(requestId));
  }
}
