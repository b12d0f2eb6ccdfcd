package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The carrier deadlock of virtual threads on JDK 21 to 23 (JDK 21+): the {@code healthy} service,
 * then after {@code --pause} (default 20 s) a virtual thread takes a {@link ReentrantLock} and
 * sleeps 100 ms, unmounted; meanwhile twice as many virtual threads as the target has CPUs (the
 * scheduler's carriers by default) each enter a {@code synchronized} block and wait for that lock.
 * Parked inside {@code synchronized}, each stays pinned to its carrier, so the holder never gets a
 * carrier back to release the lock: every carrier is held for good and no virtual thread runs
 * again, while the platform threads (the service, JMX) go on. From JDK 24 (JEP 491) the waiters
 * unmount and the lock is released at once. Onsets {@code steady}, then {@code carrier-deadlock};
 * {@code carrier-deadlock-over} if the holder finished within 10 s.
 */
final class CarrierDeadlockScenario implements Scenario {
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(20);
  private static final long HOLD_MILLIS = 100;

  private final LabOptions options;

  CarrierDeadlockScenario(LabOptions options) {
    this.options = options;
  }

  @Override
  public String name() {
    return "carrier-deadlock";
  }

  @Override
  public String description() {
    return "healthy, then after --pause (default 20s) virtual threads pinned in synchronized wait"
        + " for a lock whose holder cannot get a carrier back (JDK 21+; a deadlock up to JDK 23)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    VirtualThreads virtualThreads = VirtualThreads.forScenario(name());
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      Thread.sleep(options.pause(DEFAULT_PAUSE).toMillis());
      ReentrantLock lock = new ReentrantLock();
      Thread holder = virtualThreads.start(() -> holdFor(lock, HOLD_MILLIS));
      while (!lock.isLocked() && holder.isAlive()) {
        Thread.sleep(1);
      }
      int waiters = 2 * Runtime.getRuntime().availableProcessors();
      for (int i = 0; i < waiters; i++) {
        Object monitor = new Object();
        virtualThreads.start(() -> waitPinned(monitor, lock));
      }
      log.onset("carrier-deadlock", "waiters", waiters);
      if (joined(holder, Duration.ofSeconds(10))) {
        log.onset("carrier-deadlock-over", "waiters", waiters);
      }
      service.join();
    } finally {
      service.interrupt();
    }
  }

  private static void holdFor(ReentrantLock lock, long millis) {
    lock.lock();
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }

  /** Waits for {@code lock} inside {@code synchronized}: pinned up to JDK 23. */
  private static void waitPinned(Object monitor, ReentrantLock lock) {
    synchronized (monitor) {
      lock.lock();
      lock.unlock();
    }
  }

  private static boolean joined(Thread thread, Duration within) throws InterruptedException {
    thread.join(within.toMillis());
    return !thread.isAlive();
  }
}
