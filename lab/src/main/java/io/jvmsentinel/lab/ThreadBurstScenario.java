package io.jvmsentinel.lab;

import java.util.concurrent.CountDownLatch;

/**
 * A one-off pool start: N threads started at once that then wait idle. Thread starts jump once and
 * stay flat, which a detector must not call a storm.
 */
final class ThreadBurstScenario implements Scenario {

  static final int DEFAULT_THREADS = 200;

  private final int threads;

  ThreadBurstScenario(LabOptions options) {
    this.threads = options.threads(DEFAULT_THREADS);
  }

  @Override
  public String name() {
    return "thread-burst";
  }

  @Override
  public String description() {
    return "starts --threads threads once (default " + DEFAULT_THREADS + "), then stays quiet";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    CountDownLatch shutdown = new CountDownLatch(1);
    log.onset("burst", "threads", threads);
    startPool(shutdown);
    log.onset("quiet");
    try {
      shutdown.await();
    } finally {
      shutdown.countDown();
    }
  }

  /** The creator site of the burst, as it would appear in a pool's start-up code. */
  private void startPool(CountDownLatch shutdown) {
    for (int i = 0; i < threads; i++) {
      Thread thread = LabThreads.daemon("lab-pool-" + i, () -> awaitQuietly(shutdown));
      thread.start();
    }
  }

  private static void awaitQuietly(CountDownLatch shutdown) {
    try {
      shutdown.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
