package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * A healthy service that runs one large report: the {@code healthy} service throughout, and after
 * {@code --pause} (default 60 s) a report that builds a large structure for {@code --phase}
 * (default 20 s): the {@code gc-pressure} mechanism, 60% of the heap live and rebuilt at 200 MB/s
 * (run with {@code -Xmx128m}), then dropped. GC is busy while the report runs, and only then.
 * Onsets {@code steady}, {@code report}, {@code gc} (from gc-pressure), {@code report-done}.
 */
final class BatchGcBurstScenario implements Scenario {

  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(60);
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(20);

  private final LabOptions options;
  private final Duration pause;
  private final Duration phase;

  BatchGcBurstScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(DEFAULT_PAUSE);
    this.phase = options.phase(DEFAULT_PHASE);
  }

  @Override
  public String name() {
    return "batch-gc-burst";
  }

  @Override
  public String description() {
    return "healthy, and once after --pause (default 60s) a report building a large structure"
        + " for --phase (default 20s, gc-pressure's mechanism): run with -Xmx128m";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      Thread.sleep(pause.toMillis());
      log.onset("report", "duration_ms", phase.toMillis());
      Phases.runFor(new GcPressureScenario(LabOptions.defaults("gc-pressure")), phase, log);
      log.onset("report-done", "after_ms", phase.toMillis());
      service.join();
    } finally {
      service.interrupt();
    }
  }
}
