package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * GC pressure during start-up only (issue 12): the {@code healthy} service throughout, and for the
 * first {@code --phase} (default 60 s) the {@code gc-pressure} mechanism beside it (a large live
 * set rebuilt at 200 MB/s on the launcher's {@code -Xmx64m}, as a service filling its caches does);
 * then the live set is dropped and the service runs healthy. Onsets {@code gc} (from gc-pressure),
 * then {@code startup-over}. Its pauses are real while they last; after {@code startup-over}
 * nothing should alert.
 */
final class GcAtStartupScenario implements Scenario {

  static final Duration DEFAULT_PHASE = Duration.ofSeconds(60);

  private final LabOptions options;
  private final Duration phase;

  GcAtStartupScenario(LabOptions options) {
    this.options = options;
    this.phase = options.phase(DEFAULT_PHASE);
  }

  @Override
  public String name() {
    return "gc-at-startup";
  }

  @Override
  public String description() {
    return "healthy, with gc-pressure during the first --phase (default 60s) only: run with"
        + " -Xmx64m";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      Phases.runFor(new GcPressureScenario(LabOptions.defaults("gc-pressure")), phase, log);
      log.onset("startup-over", "after_ms", phase.toMillis());
      service.join();
    } finally {
      service.interrupt();
    }
  }
}
