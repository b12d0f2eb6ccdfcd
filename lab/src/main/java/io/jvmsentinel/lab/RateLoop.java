package io.jvmsentinel.lab;

/** Runs a unit of work at a steady rate on the calling thread until it is interrupted. */
final class RateLoop {

  /** One unit of work, e.g. one request; its failures are the scenario's to report. */
  interface Work {
    void run(long sequence) throws Exception;
  }

  private static final long TICK_MILLIS = 5;

  private RateLoop() {}

  /**
   * Calls {@code work} {@code rate} times per second, counting each call in the {@link
   * RequestCounter} (JMX). Work that fails is counted and skipped, so a single refused connection
   * does not end a scenario; the first failure is printed.
   */
  static void run(int rate, Work work) throws InterruptedException {
    loop(rate, work, RequestCounter.register());
  }

  /**
   * Like {@link #run} with {@code clients} threads sharing the rate, as a service with several
   * request threads does: a single client cannot reach high rates when each request takes a few
   * milliseconds (TLS handshakes on a cold JVM).
   */
  static void runParallel(int rate, int clients, Work work) throws InterruptedException {
    RequestCounter requests = RequestCounter.register();
    java.util.List<Thread> helpers = new java.util.ArrayList<>();
    for (int i = 1; i < clients; i++) {
      int share = share(rate, clients, i);
      Thread helper =
          LabThreads.daemon(
              "lab-client-" + i,
              () -> {
                try {
                  loop(share, work, requests);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      helper.start();
      helpers.add(helper);
    }
    try {
      loop(share(rate, clients, 0), work, requests);
    } finally {
      helpers.forEach(Thread::interrupt);
    }
  }

  /** Client {@code i}'s part of {@code rate}: the parts add up to it (30/s is 8+8+7+7). */
  private static int share(int rate, int clients, int i) {
    return Math.max(1, rate / clients + (i < rate % clients ? 1 : 0));
  }

  private static void loop(int rate, Work work, RequestCounter requests)
      throws InterruptedException {
    long start = System.nanoTime();
    long done = 0;
    long failures = 0;
    while (true) {
      long due = (System.nanoTime() - start) / 1_000 * rate / 1_000_000;
      if (due - done > rate) {
        // More than a second behind (slow requests or a suspended JVM): drop the backlog.
        done = due;
      }
      while (done < due) {
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        try {
          work.run(done++);
          requests.completed();
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          requests.failed();
          if (failures++ == 0) {
            System.err.println("LAB request failed: " + e);
          }
        }
      }
      Thread.sleep(TICK_MILLIS);
    }
  }
}
