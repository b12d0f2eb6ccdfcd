package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * A healthy service with a scheduled job that starts a thread per work item: every {@code --pause}
 * (default 30 s) a batch of {@code --threads} (default {@value #DEFAULT_THREADS}) short-lived
 * threads started within {@value #SPREAD_MILLIS} ms, each doing one item and ending. Bursts of
 * starts with a low average (about 3 a second): not the sustained thread-per-request storm of
 * incident 1. Onsets {@code steady} (the service), then {@code batch} with its number at each run.
 */
final class BatchThreadBurstsScenario implements Scenario {

  static final int DEFAULT_THREADS = 100;
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(30);
  static final long SPREAD_MILLIS = 1_500;

  private final LabOptions options;
  private final int threads;
  private final Duration pause;

  BatchThreadBurstsScenario(LabOptions options) {
    this.options = options;
    this.threads = options.threads(DEFAULT_THREADS);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "batch-thread-bursts";
  }

  @Override
  public String description() {
    return "healthy, and every --pause (default 30s) a batch job starting --threads (default "
        + DEFAULT_THREADS
        + ") short-lived threads, one per item, within 1.5 s";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      runBatches(log);
    } finally {
      service.interrupt();
    }
  }

  /** The batch job alone, for a sequence that runs its own healthy service beside it. */
  Scenario withoutService() {
    return Phases.named("batch-job", "the batch job of batch-thread-bursts", this::runBatches);
  }

  private void runBatches(LabLog log) throws InterruptedException {
    for (long batch = 1; ; batch++) {
      Thread.sleep(pause.toMillis());
      log.onset("batch", "number", batch, "threads", threads);
      runBatch(batch);
    }
  }

  /** The creator site: one new thread per work item, started over {@link #SPREAD_MILLIS}. */
  void runBatch(long batch) throws InterruptedException {
    long gap = SPREAD_MILLIS / threads;
    for (int i = 0; i < threads; i++) {
      long item = batch * 1_000_000L + i;
      Thread worker =
          LabThreads.daemon(
              "lab-batch-" + batch + "-" + i, () -> Blackhole.consume(CpuWork.tiny(item)));
      worker.start();
      Thread.sleep(gap);
    }
  }
}
