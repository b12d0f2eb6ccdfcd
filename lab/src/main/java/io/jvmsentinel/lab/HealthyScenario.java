package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * A steady, healthy service: a JIT warm-up burst, then a fixed pool of workers doing small requests
 * with pauses in between. Nothing here should ever alert; it uses well under one core.
 */
final class HealthyScenario implements Scenario {

  static final int WORKERS = 8;
  // A request takes well under a millisecond of CPU once compiled: 8 workers stay near 0.1 core.
  private static final long PAUSE_MILLIS = 20;

  private final Duration warmup;
  private final LongUnaryOperator request;

  HealthyScenario(LabOptions options) {
    this(options, CpuWork::request);
  }

  /** A healthy service whose workers serve {@code request} (warm-up still runs the plain one). */
  HealthyScenario(LabOptions options, LongUnaryOperator request) {
    this.warmup = options.warmup(Duration.ofSeconds(5));
    this.request = request;
  }

  @Override
  public String name() {
    return "healthy";
  }

  @Override
  public String description() {
    return "JIT warm-up, then " + WORKERS + " workers doing steady CPU work and allocation";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("warmup", "duration_ms", warmup.toMillis());
    warmUp();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      long seed = i * 1_000_003L;
      Thread worker = LabThreads.daemon("lab-worker-" + i, () -> serve(seed));
      workers.add(worker);
    }
    workers.forEach(Thread::start);
    log.onset("steady", "workers", WORKERS);
    try {
      for (Thread worker : workers) {
        worker.join();
      }
    } finally {
      workers.forEach(Thread::interrupt);
    }
  }

  // Half-duty-cycle bursts on one thread: compiles the request path without hogging a core.
  private void warmUp() throws InterruptedException {
    long end = System.nanoTime() + warmup.toNanos();
    long seed = 0;
    long sink = 0;
    while (System.nanoTime() < end) {
      long burstEnd = System.nanoTime() + 5_000_000;
      while (System.nanoTime() < burstEnd) {
        sink += CpuWork.request(seed++);
      }
      Thread.sleep(5);
    }
    Blackhole.consume(sink);
  }

  private void serve(long seed) {
    long sink = 0;
    try {
      while (!Thread.currentThread().isInterrupted()) {
        sink += request.applyAsLong(seed++);
        Thread.sleep(PAUSE_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Blackhole.consume(sink);
  }
}
