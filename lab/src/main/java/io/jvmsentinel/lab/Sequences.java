package io.jvmsentinel.lab;

import static io.jvmsentinel.lab.SequenceScenario.hold;
import static io.jvmsentinel.lab.SequenceScenario.play;
import static io.jvmsentinel.lab.SequenceScenario.quiet;
import static io.jvmsentinel.lab.SequenceScenario.start;
import static io.jvmsentinel.lab.SequenceScenario.stop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sequences the detection must get right beyond single incidents (docs/incidents.md,
 * "Sequences"): a storm followed by healthy changes of the same signal, an incident starting while
 * another fires, an incident that flaps and one that recurs long after it resolved. Every step is a
 * real mechanism of the lab; {@code expect=} in each step's onset says what it should page.
 */
final class Sequences {

  static final int STORM_RATE = ThreadPerRequestScenario.DEFAULT_RATE;
  static final int BESIDE_RATE = 100;
  static final int RECURRENCE_RATE = 70;
  static final int FLAPS = 4;
  static final Duration FLAP_ON = Duration.ofSeconds(10);
  static final Duration FLAP_OFF = Duration.ofSeconds(10);
  static final Duration BATCH_TO_POOL = Duration.ofSeconds(2);

  private Sequences() {}

  /**
   * A thread-per-request storm that ends, then the healthy changes of the same signal a minute
   * later: a batch job starting 100 short-lived threads every 30 s, then one more batch with a
   * 200-thread pool started at once 2 s after it (two one-off creators back to back, as a loaded
   * machine once lined them up). One ThreadStorm, for the storm only.
   */
  static Scenario stormThenBursts(LabOptions options) {
    return incidentThenHealthyChanges(
        "storm-then-bursts",
        "thread-per-request (200/s) for 40s; 60s quiet; batch-thread-bursts for 100s; a batch"
            + " and 2s after it pool-start (200 threads at once); quiet: one ThreadStorm",
        options,
        play("storm", "ThreadStorm", threadPerRequest(STORM_RATE), Duration.ofSeconds(40)),
        play(
            "batches",
            "none",
            new BatchThreadBurstsScenario(LabOptions.defaults("batch-thread-bursts"))
                .withoutService(),
            Duration.ofSeconds(100)),
        play("batch-then-pool", "none", batchThenPool(), Duration.ofSeconds(30)));
  }

  /**
   * One batch of the batch job, and {@link #BATCH_TO_POOL} after it has started its threads, a pool
   * start: the batch in the older half of ThreadStorm's 5 s window, the pool in the newer.
   */
  private static Scenario batchThenPool() {
    BatchThreadBurstsScenario batchJob =
        new BatchThreadBurstsScenario(LabOptions.defaults("batch-thread-bursts"));
    Scenario pool = new PoolStartScenario(LabOptions.parse("pool-start", "--pause", "10m"));
    return Phases.named(
        "batch-then-pool",
        "one batch of batch-thread-bursts, then pool-start 2s after it",
        log -> {
          log.onset("batch", "number", 0, "threads", BatchThreadBurstsScenario.DEFAULT_THREADS);
          batchJob.runBatch(0);
          Thread.sleep(BATCH_TO_POOL.toMillis());
          pool.run(log);
        });
  }

  /**
   * A full-handshake TLS storm (a fresh SSLContext per connection) that ends, then a minute later
   * healthy clients whose sessions are lost once when their peer restarts. One TlsHandshakeStorm.
   */
  static Scenario tlsStormThenWave(LabOptions options) {
    return incidentThenHealthyChanges(
        "tls-storm-then-wave",
        "tls-full-handshakes (40/s) for 40s; 60s quiet; tls-reconnect-wave (peer restart after"
            + " 60s) for 100s: one TlsHandshakeStorm",
        options,
        play(
            "tls-storm",
            "TlsHandshakeStorm",
            new TlsFullHandshakesScenario(LabOptions.parse("tls-full-handshakes", "--rate", "40")),
            Duration.ofSeconds(40)),
        play(
            "wave",
            "none",
            new TlsReconnectWaveScenario(LabOptions.defaults("tls-reconnect-wave")),
            Duration.ofSeconds(100)));
  }

  /**
   * {@code incident}, a minute of quiet ({@code after-storm}), the healthy changes of the same
   * signal in turn, then 20 s of quiet.
   */
  private static Scenario incidentThenHealthyChanges(
      String name,
      String description,
      LabOptions options,
      SequenceScenario.Step incident,
      SequenceScenario.Step... healthyChanges) {
    List<SequenceScenario.Step> steps = new ArrayList<>();
    steps.add(incident);
    steps.add(quiet("after-storm", Duration.ofSeconds(60)));
    steps.addAll(List.of(healthyChanges));
    steps.add(quiet("quiet", Duration.ofSeconds(20)));
    return new SequenceScenario(name, description, options, steps);
  }

  /**
   * Lock contention, and while it fires a thread-per-request storm from other code: two alerts,
   * each naming its own cause and resolving when its own cause stops.
   */
  static Scenario stormDuringContention(LabOptions options) {
    return new SequenceScenario(
        "storm-during-contention",
        "lock-contention; after 40s thread-per-request (100/s) for 30s beside it; contention"
            + " 30s more: LockContention and ThreadStorm, each resolved on its own",
        options,
        List.of(
            start(
                "contention",
                "LockContention",
                new LockContentionScenario(LabOptions.defaults("lock-contention"))),
            hold(Duration.ofSeconds(40)),
            play("storm", "ThreadStorm", threadPerRequest(BESIDE_RATE), Duration.ofSeconds(30)),
            quiet("storm-over", Duration.ofSeconds(30)),
            stop("contention-over", "contention"),
            quiet("quiet", Duration.ofSeconds(40))));
  }

  /**
   * GC pressure starting while the code cache churns (run with {@code -XX:ReservedCodeCacheSize=4m
   * -Xmx128m}, as the demo runs gc-pressure): CodeCacheChurn, then GcOverhead naming GC pauses,
   * resolving when the allocation stops while the churn goes on.
   */
  static Scenario gcDuringChurn(LabOptions options) {
    return new SequenceScenario(
        "gc-during-churn",
        "codecache-churn throughout; after 90s gc-pressure for 40s (run with"
            + " -XX:ReservedCodeCacheSize=4m -Xmx128m): CodeCacheChurn, then GcOverhead",
        options,
        List.of(
            start(
                "churn",
                "CodeCacheChurn",
                new CodeCacheChurnScenario(LabOptions.defaults("codecache-churn"))),
            hold(Duration.ofSeconds(90)),
            play(
                "gc",
                "GcOverhead",
                new GcPressureScenario(LabOptions.defaults("gc-pressure")),
                Duration.ofSeconds(40)),
            quiet("gc-over", Duration.ofSeconds(50))));
  }

  /**
   * A deoptimisation storm that ends, then the healthy changes of the JIT's same signals a minute
   * later: a message pipeline of 200 new stage classes compiled for the first time, then two new
   * message types that fail every stage's type check and get the stages recompiled (a wave of
   * recompilation of many methods once each). One DeoptimizationStorm, for the storm only; on JDK
   * 13 and older it is inferred from the code it throws away, which the wave produces too.
   */
  static Scenario deoptThenNewCode(LabOptions options) {
    return new SequenceScenario(
        "deopt-then-new-code",
        "deopt-storm for 40s; 60s quiet; new-message-type (its 200 stages compiled, then a new"
            + " type after 40s and another 40s later) for 110s: one DeoptimizationStorm",
        options,
        List.of(
            play(
                "deopt",
                "DeoptimizationStorm",
                new DeoptStormScenario(LabOptions.defaults("deopt-storm")),
                Duration.ofSeconds(40)),
            quiet("after-storm", Duration.ofSeconds(60)),
            play(
                "new-code",
                "none",
                new NewMessageTypeScenario(
                    LabOptions.parse("new-message-type", "--pause", "40s", "--phase", "40s")),
                Duration.ofSeconds(110)),
            quiet("quiet", Duration.ofSeconds(20))));
  }

  /**
   * A thread-per-request storm that stops and starts again {@value #FLAPS} times, {@code FLAP_OFF}
   * (10 s, under the rules' 15 s clear-for) apart: one alert, resolved once after the last stop.
   * Then 5.5 minutes of quiet, and the same storm recurs at {@code --rate}/s (default {@value
   * #RECURRENCE_RATE}, over the 50/s floor but under 5x the flaps' average over the baseline's 9
   * minutes): a new page naming its cause.
   */
  static Scenario stormFlapsThenRecurs(LabOptions options) {
    List<SequenceScenario.Step> steps = new ArrayList<>();
    for (int flap = 1; flap <= FLAPS; flap++) {
      steps.add(
          play(
              "flap-" + flap,
              flap == 1 ? "ThreadStorm" : "same-alert",
              threadPerRequest(STORM_RATE),
              FLAP_ON));
      steps.add(quiet(flap == FLAPS ? "flaps-over" : "flap-off-" + flap, FLAP_OFF));
    }
    steps.add(hold(Duration.ofSeconds(320)));
    steps.add(
        play(
            "recurs",
            "ThreadStorm",
            threadPerRequest(options.rate(RECURRENCE_RATE)),
            Duration.ofSeconds(40)));
    steps.add(quiet("quiet", Duration.ofSeconds(40)));
    return new SequenceScenario(
        "storm-flaps-then-recurs",
        "thread-per-request (200/s) 4 times 10s, 10s apart; 5.5 min quiet; again at --rate/s"
            + " (default "
            + RECURRENCE_RATE
            + ") for 40s: one ThreadStorm for the flaps, a second for the recurrence",
        options,
        steps);
  }

  private static Scenario threadPerRequest(int rate) {
    return new ThreadPerRequestScenario(
        LabOptions.parse("thread-per-request", "--rate", Integer.toString(rate)));
  }
}
