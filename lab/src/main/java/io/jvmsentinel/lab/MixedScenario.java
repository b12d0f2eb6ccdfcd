package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo: a healthy service throughout, and the incidents in turn on top of it, each for {@code
 * --phase} (default 30 s) with {@code --pause} (default 20 s) of calm before it and after the last.
 * Each incident is announced by an {@code incident} onset naming it and the alert to expect ({@code
 * expect=ThreadStorm}), followed by the incident's own onset ({@code storm}, {@code gc}, {@code
 * deopt}); calm periods by a {@code quiet} onset. The code cache scenarios need their own JVM flags
 * and are not part of it; gc-pressure sizes its live set from the max heap, so run this with a
 * bounded heap (see {@code io.jvmsentinel.daemon.lab.LabScenarios}).
 */
final class MixedScenario implements Scenario {

  static final Duration DEFAULT_PHASE = Duration.ofSeconds(30);
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(20);

  /** The alert each incident should raise, printed with its onset so a demo viewer knows. */
  static final Map<String, String> EXPECTED_ALERTS =
      Map.of(
          "thread-per-request", "ThreadStorm",
          "tls-listener-storm", "ThreadStorm(JDK-8246039)",
          "gc-pressure", "GcOverhead",
          "deopt-storm", "DeoptimizationStorm");

  private final LabOptions options;
  private final Duration phase;
  private final Duration pause;

  MixedScenario(LabOptions options) {
    this.options = options;
    this.phase = options.phase(DEFAULT_PHASE);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "mixed";
  }

  @Override
  public String description() {
    return "healthy throughout; thread-per-request, tls-listener-storm, gc-pressure, deopt-storm in"
        + " turn for --phase each (default 30s), --pause apart (default 20s)";
  }

  /**
   * The incidents, in the order they are played, each at its own default rate ({@code --rate} means
   * different units to each of them).
   */
  List<Scenario> incidents() {
    List<Scenario> incidents = new ArrayList<>();
    incidents.add(new ThreadPerRequestScenario(LabOptions.defaults("thread-per-request")));
    incidents.add(new TlsListenerStormScenario(LabOptions.defaults("tls-listener-storm")));
    incidents.add(new GcPressureScenario(LabOptions.defaults("gc-pressure")));
    incidents.add(new DeoptStormScenario(LabOptions.defaults("deopt-storm")));
    return incidents;
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread healthy = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      for (Scenario incident : incidents()) {
        log.onset("quiet", "duration_ms", pause.toMillis());
        Thread.sleep(pause.toMillis());
        log.onset(
            "incident",
            "name",
            incident.name(),
            "expect",
            EXPECTED_ALERTS.get(incident.name()),
            "duration_ms",
            phase.toMillis());
        Phases.runFor(incident, phase, log);
      }
      log.onset("quiet", "duration_ms", pause.toMillis());
      Thread.sleep(pause.toMillis());
      log.onset("end");
      healthy.join();
    } finally {
      healthy.interrupt();
    }
  }
}
