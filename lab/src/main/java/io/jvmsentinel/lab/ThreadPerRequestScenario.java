package io.jvmsentinel.lab;

/** A thread storm: a new short-lived thread per request at a steady rate (default 200/s). */
final class ThreadPerRequestScenario implements Scenario {

  static final int DEFAULT_RATE = 200;
  private static final long TICK_MILLIS = 5;

  private final int rate;

  ThreadPerRequestScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "thread-per-request";
  }

  @Override
  public String description() {
    return "starts a new short-lived thread per request, --rate per second (default "
        + DEFAULT_RATE
        + ")";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    RequestDispatcher dispatcher = new RequestDispatcher();
    log.onset("storm", "rate", rate);
    long start = System.nanoTime();
    long dispatched = 0;
    while (true) {
      long due = (System.nanoTime() - start) / 1_000 * rate / 1_000_000;
      if (due - dispatched > rate) {
        // More than a second behind (e.g. the JVM was suspended): keep the rate, drop the backlog.
        dispatched = due;
      }
      while (dispatched < due) {
        dispatcher.dispatch(dispatched++);
      }
      Thread.sleep(TICK_MILLIS);
    }
  }
}
