package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * Two thread storms from different creators, a quiet gap apart (issue 12, case 1): first a logger
 * that starts a thread per event ({@link ThreadPerEventLogger#log}, {@code --rate}/s, default
 * {@value #DEFAULT_RATE}), then the JDK-8246039 TLS listener storm ({@code
 * TransportContext.finishHandshake} starting {@code HandshakeCompletedNotify-Thread}s at {@value
 * #TLS_RATE}/s). Each storm lasts {@code --phase} (default 40 s), the gap {@code --pause} (default
 * 60 s). Onsets: {@code logger-storm}, {@code gap}, {@code tls-storm}, then {@code quiet} until the
 * lab ends. An alert for the second storm must name the second creator, not the first.
 */
final class StormAfterStormScenario implements Scenario {

  static final int DEFAULT_RATE = 200;
  static final int TLS_RATE = TlsListenerStormScenario.DEFAULT_RATE;
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(40);
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(60);

  private final int rate;
  private final Duration phase;
  private final Duration pause;

  StormAfterStormScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
    this.phase = options.phase(DEFAULT_PHASE);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "storm-after-storm";
  }

  @Override
  public String description() {
    return "a logger starting a thread per event (--rate/s, default "
        + DEFAULT_RATE
        + "), --pause of quiet (default 60s), then the TLS listener storm ("
        + TLS_RATE
        + "/s), --phase each (default 40s)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("logger-storm", "rate", rate, "duration_ms", phase.toMillis());
    Phases.runFor(new LoggerStorm(rate), phase, log);
    log.onset("gap", "duration_ms", pause.toMillis());
    Thread.sleep(pause.toMillis());
    log.onset("tls-storm", "rate", TLS_RATE, "duration_ms", phase.toMillis());
    Phases.runFor(new TlsListenerStormScenario(TLS_RATE), phase, log);
    log.onset("quiet");
    Phases.idleUntilInterrupted();
  }

  /** The first storm: one logged event, so one new thread, at a steady rate. */
  private static final class LoggerStorm implements Scenario {
    private final int rate;

    LoggerStorm(int rate) {
      this.rate = rate;
    }

    @Override
    public String name() {
      return "logger-storm";
    }

    @Override
    public String description() {
      return "a logger starting a thread per event";
    }

    @Override
    public void run(LabLog log) throws InterruptedException {
      ThreadPerEventLogger logger = new ThreadPerEventLogger();
      RateLoop.run(rate, logger::log);
    }
  }
}
