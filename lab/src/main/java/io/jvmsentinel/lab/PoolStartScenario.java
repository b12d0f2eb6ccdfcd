package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A legitimate one-off pool start (issue 12): a {@code --threads}-thread pool (default {@value
 * #DEFAULT_THREADS}) started at once, then reused for tasks at {@value #TASK_RATE}/s; after {@code
 * --pause} (default 3 min) it is replaced once by a new pool of the same size, as a service does on
 * a configuration reload. Onsets {@code pool-start}, {@code reuse}, {@code pool-restart}. Two
 * bursts far apart are not a storm.
 */
final class PoolStartScenario implements Scenario {

  static final int DEFAULT_THREADS = 200;
  static final int TASK_RATE = 200;
  static final Duration DEFAULT_PAUSE = Duration.ofMinutes(3);

  private final int threads;
  private final Duration pause;

  PoolStartScenario(LabOptions options) {
    this.threads = options.threads(DEFAULT_THREADS);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "pool-start";
  }

  @Override
  public String description() {
    return "starts a --threads pool at once (default "
        + DEFAULT_THREADS
        + ") and reuses it; replaces it once after --pause (default 3m)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    ExecutorService pool = startPool("lab-pool-", log, "pool-start");
    try {
      log.onset("reuse", "tasks_per_second", TASK_RATE);
      Phases.runFor(new Reuse(pool), pause, log);
    } finally {
      pool.shutdownNow();
    }
    ExecutorService second = startPool("lab-pool2-", log, "pool-restart");
    try {
      new Reuse(second).run(log);
    } finally {
      second.shutdownNow();
    }
  }

  /** Every thread of the pool started now: the one burst this scenario is about. */
  private ExecutorService startPool(String prefix, LabLog log, String phase) {
    log.onset(phase, "threads", threads);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            LabThreads.numbered(prefix));
    pool.prestartAllCoreThreads();
    return pool;
  }

  /** Small tasks on the pool's existing threads: reuse starts no thread. */
  private static final class Reuse implements Scenario {
    private final ExecutorService pool;

    Reuse(ExecutorService pool) {
      this.pool = pool;
    }

    @Override
    public String name() {
      return "pool-reuse";
    }

    @Override
    public String description() {
      return "tasks on an existing pool";
    }

    @Override
    public void run(LabLog log) throws InterruptedException {
      RateLoop.run(
          TASK_RATE, sequence -> pool.execute(() -> Blackhole.consume(CpuWork.tiny(sequence))));
    }
  }
}
