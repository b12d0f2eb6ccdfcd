package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * Class loader churn in a roomy code cache: a healthy service that, after {@code --pause} (default
 * {@value #DEFAULT_PAUSE_MINUTES} min, past the daemon's warm-up), drops and reloads a plugin
 * {@code --rate} times a second (default {@value #DEFAULT_RATE}), as a script engine or a plugin
 * host that builds a new class loader per reload does. Every reload defines the same classes again
 * ({@link HotCodeTemplate}) in a fresh loader and calls them until C1 and C2 have compiled them, so
 * the JIT compiles the same methods again and again; the dropped loaders are unloaded by a GC every
 * {@value #UNLOAD_EVERY} reloads (as a metaspace threshold would). Nothing is deoptimised and the
 * code cache stays far from its maximum. Onset {@code reload}.
 */
final class ClassLoaderChurnScenario implements Scenario {

  static final long DEFAULT_PAUSE_MINUTES = 4;
  static final int DEFAULT_RATE = 10;
  static final int UNLOAD_EVERY = 20;

  private final LabOptions options;
  private final Duration pause;
  private final int rate;

  ClassLoaderChurnScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(Duration.ofMinutes(DEFAULT_PAUSE_MINUTES));
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "classloader-churn";
  }

  @Override
  public String description() {
    return "healthy, then after --pause (default "
        + DEFAULT_PAUSE_MINUTES
        + "m) the same classes reloaded in a new class loader --rate times a second (default "
        + DEFAULT_RATE
        + "): the same methods compiled again, no code cache pressure";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      Thread.sleep(pause.toMillis());
      log.onset("reload", "rate", rate, "unload_every", UNLOAD_EVERY);
      // Only the newest copy stays reachable: each reload drops the previous loader.
      CodeCacheChurnScenario.churn(
          rate, () -> CodeCacheChurnScenario.CALLS_PER_COPY, alive -> alive > 1, UNLOAD_EVERY);
    } finally {
      service.interrupt();
    }
  }
}
