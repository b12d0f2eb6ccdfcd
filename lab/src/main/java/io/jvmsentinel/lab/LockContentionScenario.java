package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Lock contention (incident 3, JDK-8293562): {@code --threads} request threads (default {@value
 * #DEFAULT_THREADS}) share one {@link SlowCloseConnectionCache}; every {@value
 * #REQUESTS_PER_CONNECTION}rd request's connection is closed under the cache's lock, and the peer
 * takes {@value #ACK_MILLIS} ms to acknowledge, so most request threads are blocked on the cache.
 * Onset {@code contention}. Uses little CPU: the threads mostly wait.
 */
final class LockContentionScenario implements Scenario {
  static final int DEFAULT_THREADS = 16;
  static final int REQUESTS_PER_CONNECTION = 3;
  static final long ACK_MILLIS = 25;
  private static final long REQUEST_MILLIS = 2;

  private final int threads;

  LockContentionScenario(LabOptions options) {
    this.threads = options.threads(DEFAULT_THREADS);
  }

  @Override
  public String name() {
    return "lock-contention";
  }

  @Override
  public String description() {
    return "--threads request threads (default "
        + DEFAULT_THREADS
        + ") blocked on a shared connection cache that closes connections under its lock"
        + " (JDK-8293562's mechanism)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    try (SlowPeer peer = new SlowPeer(ACK_MILLIS)) {
      SlowCloseConnectionCache cache =
          new SlowCloseConnectionCache(peer.port(), REQUESTS_PER_CONNECTION);
      List<Thread> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Thread worker = LabThreads.daemon("lab-request-" + i, () -> serve(cache));
        workers.add(worker);
      }
      workers.forEach(Thread::start);
      log.onset("contention", "threads", threads, "ack_ms", ACK_MILLIS);
      try {
        for (Thread worker : workers) {
          worker.join();
        }
      } finally {
        workers.forEach(Thread::interrupt);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void serve(SlowCloseConnectionCache cache) {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        SlowCloseConnectionCache.Connection connection = cache.get();
        Thread.sleep(REQUEST_MILLIS);
        cache.put(connection);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
