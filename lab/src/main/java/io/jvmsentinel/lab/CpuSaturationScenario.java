package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A healthy service that runs a CPU-bound batch: the {@code healthy} service throughout, and after
 * {@code --pause} (default 40 s) {@code --threads} (default 16) threads computing flat out for
 * {@code --phase} (default 60 s), a parallel recomputation such as a nightly re-index, started once
 * as a pool and stopped after. Every core is saturated meanwhile, so the JVM answers its monitoring
 * slowly (its RMI threads wait for a core with everyone else) and calls with a short timeout time
 * out. Onsets {@code steady}, {@code batch}, {@code batch-done}.
 */
final class CpuSaturationScenario implements Scenario {
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(40);
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(60);
  static final int DEFAULT_THREADS = 16;

  private final LabOptions options;
  private final Duration pause;
  private final Duration phase;
  private final int threads;
  private volatile boolean computing;
  private volatile long sink;

  CpuSaturationScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(DEFAULT_PAUSE);
    this.phase = options.phase(DEFAULT_PHASE);
    this.threads = options.threads(DEFAULT_THREADS);
  }

  @Override
  public String name() {
    return "cpu-saturation";
  }

  @Override
  public String description() {
    return "healthy, and after --pause (default 40s) --threads (default "
        + DEFAULT_THREADS
        + ") threads computing flat out for --phase (default 60s): JMX answers slowly";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      Thread.sleep(pause.toMillis());
      log.onset("batch", "threads", threads, "duration_ms", phase.toMillis());
      computing = true;
      List<Thread> batch = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Thread worker = new Thread(this::compute, "batch-" + i);
        worker.setDaemon(true);
        worker.start();
        batch.add(worker);
      }
      Thread.sleep(phase.toMillis());
      computing = false;
      for (Thread worker : batch) {
        worker.join();
      }
      log.onset("batch-done", "after_ms", phase.toMillis());
      service.join();
    } finally {
      computing = false;
      service.interrupt();
    }
  }

  /** Pure computation, no allocation: the CPU, not the heap, is what the batch takes. */
  private void compute() {
    long x = Thread.currentThread().getId();
    while (computing) {
      for (int i = 0; i < 1_000_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        x ^= x >>> 29;
      }
      sink += x;
    }
  }
}
