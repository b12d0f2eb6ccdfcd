package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.function.LongUnaryOperator;

/**
 * A healthy service that switches on a big feature long after its JIT warm-up (issue 12, case 2):
 * {@code healthy} for {@code --pause} (default {@value #DEFAULT_PAUSE_MINUTES} min, past the
 * daemon's 3-minute warm-up), then its same 8 workers also run {@link FeatureWork} on every
 * request. Onset {@code feature}: a burst of first-time compilations in a roomy code cache, no
 * recompilation churn, no new thread. Nothing here should alert.
 */
final class FeatureAfterWarmupScenario implements Scenario {

  static final long DEFAULT_PAUSE_MINUTES = 4;

  private final LabOptions options;
  private final Duration pause;

  FeatureAfterWarmupScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(Duration.ofMinutes(DEFAULT_PAUSE_MINUTES));
  }

  @Override
  public String name() {
    return "feature-after-warmup";
  }

  @Override
  public String description() {
    return "healthy, then after --pause (default "
        + DEFAULT_PAUSE_MINUTES
        + "m) the same workers switch on XML, regex, date, hashing work: new code, no churn";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    FeatureFlag flag = new FeatureFlag();
    Thread service = Phases.startInBackground(new HealthyScenario(options, flag), log);
    try {
      Thread.sleep(pause.toMillis());
      log.onset("feature", "after_ms", pause.toMillis());
      flag.on = true;
      service.join();
    } finally {
      service.interrupt();
    }
  }

  /** The request of the healthy service, plus the feature once it is switched on. */
  private static final class FeatureFlag implements LongUnaryOperator {
    volatile boolean on;

    @Override
    public long applyAsLong(long seed) {
      long result = CpuWork.request(seed);
      return on ? result + FeatureWork.request(seed) : result;
    }
  }
}
