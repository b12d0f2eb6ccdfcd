package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.detection.ScenarioReplayTest.Expected;
import io.jvmsentinel.daemon.detection.ScenarioReplayTest.Scenario;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The recorded sequences (lab {@code Sequences}, docs/incidents.md "Sequences"): incidents after,
 * during and again after others, replayed by {@link ScenarioReplayTest} like every fixture. Each
 * pages once per incident, names its own cause and not the other's, and resolves once, after its
 * cause stopped.
 */
final class SequenceReplays {
  static final String DISPATCHER = "io.jvmsentinel.lab.RequestDispatcher.dispatch";
  static final String CONTENTION = "SlowCloseConnectionCache on average; held by lab-request-";

  private SequenceReplays() {}

  static Stream<Scenario> scenarios() {
    return Stream.of(
        // A storm flapping 4 times (10 s on, 10 s off: under the 15 s clear-for) is one alert,
        // resolved once after the last flap; the same storm 5.5 minutes later, at half the rate,
        // is a new page naming its cause again (the flaps are in the baseline's 9 minutes).
        flapsThenRecurs("storm-flaps-then-recurs-rate100-jdk17"),
        // The same recurring at 70/s: the mean of the baseline's 9 minutes (the flaps' 7,200
        // starts in them) put the bar at 5 x 18/s = 90/s, and the recurrence went unpaged.
        flapsThenRecurs("storm-flaps-then-recurs-jdk17"),
        // JDK 11 through the chunk feed (2026-11-27, daemon on 25): 7.4 s after the first flap,
        // resolved once 22 s after the last; the recurrence at 70/s paged again in 7.3 s.
        flapsThenRecurs("storm-flaps-then-recurs-jdk11"),
        // A thread storm from other code while LockContention fires: two alerts, each naming its
        // own cause and not the other's, each resolving after its own cause stopped.
        duringContention("storm-during-contention-jdk17"),
        duringContention("storm-during-contention-jdk11"),
        // JDK 25 (2026-11-27): LockContention in 6.0 s, ThreadStorm in 5.6 s, each resolved 20 to
        // 25 s after its own cause stopped.
        duringContention("storm-during-contention-jdk25"),
        // A full-handshake storm (10 handshakes/s reached of the 40 asked, at load average 17),
        // then a minute later healthy clients' one-off reconnect wave to another peer: one
        // TlsHandshakeStorm, resolved after the storm; the wave pages nothing.
        tlsStormThenWave("tls-storm-then-wave-jdk17", 30),
        // JDK 11 through the chunk feed (2026-11-27, daemon on 25): 20 s after the storm (18.3
        // handshakes/s reached), resolved 22 s after it; the wave pages nothing.
        tlsStormThenWave("tls-storm-then-wave-jdk11", 30),
        // The same on JDK 25 (2026-11-27, three labs at once): the storm begins 4 s after the lab
        // is ready and the JFR stream came up 13.5 s after it, so the page comes 32 s after the
        // onset (19 s after the stream); resolved 22 s after the storm, the wave pages nothing.
        tlsStormThenWave("tls-storm-then-wave-jdk25", 40),
        // A thread storm, then a minute later a batch job's 100 threads every 30 s and a pool of
        // 200 started at once: one ThreadStorm, for the storm. The last batch and the pool came 4 s
        // apart (the batches ran late under load): 300 starts in 5 s, both halves of the window
        // filled by two different one-off creators. That paged (live, 72.9/s, "66% from
        // PoolStartScenario.startPool") until the rule asked for creators that keep starting.
        stormThenBursts("storm-then-bursts-jdk17"),
        // Run again live with both fixes (load average 1 to 5): the last batch and the pool 7 s
        // apart, one ThreadStorm.
        stormThenBursts("storm-then-bursts-run2-jdk17"),
        // The scenario lining the batch and the pool up itself (batch-then-pool: the pool 2 s
        // after the batch), run live with both fixes on a quiet machine: one ThreadStorm. The
        // mean-and-counts rule pages the pair ("69.0 thread starts/s, 50% from runBatch").
        stormThenBursts("storm-then-bursts-v2-jdk17"),
        // JDK 11 through the chunk feed (2026-11-27, daemon on 25): one ThreadStorm 6.8 s after
        // the storm, resolved 22 s after it; the batches and the pool 3.5 s after the last one
        // page nothing.
        stormThenBursts("storm-then-bursts-jdk11"),
        // The same on targets watched over JMX only (jfr.enabled: false), read every second: no
        // stacks name the creators, the kinds of threads JMX saw alive do. The storm's threads end
        // unseen in both halves of the window; the pool's are seen alive, of one kind, in one.
        stormThenBurstsJmxOnly("storm-then-bursts-jmx-only-jdk17"),
        stormThenBurstsJmxOnly("storm-then-bursts-jmx-only-jdk11"),
        // GC pressure starting while CodeCacheChurn fires (4 MB cache, -Xmx128m): GcOverhead
        // names GC pauses, not the churn, and resolves once the allocation stops while the churn
        // (still paging) goes on. The compilers' CPU is the churn's: CompilerCpuHigh may fire.
        gcDuringChurn("gc-during-churn-jdk17", Set.of("CompilerCpuHigh")),
        // JDK 11 (2026-11-27, daemon on 25): CodeCacheChurn 36 s after the churn, GcOverhead 16 s
        // after the GC, resolved 26 s after it. The 4 MB cache then filled and the JIT stopped
        // (CodeCacheFull, true), as churn-from-boot-8m-jdk11's did.
        gcDuringChurn("gc-during-churn-jdk11", Set.of("CompilerCpuHigh", "CodeCacheFull")),
        // A deoptimisation storm, then new code and two waves of recompilation a minute later
        // (new-message-type): one DeoptimizationStorm. On JDK 11 it is inferred from the code it
        // throws away, and the waves recompile many stages once each, not the same few again.
        deoptThenNewCode("deopt-then-new-code-jdk17"),
        deoptThenNewCode("deopt-then-new-code-jdk11"),
        // And on JDK 21 and 25 (2026-11-27, beside spread-deopt-storm-jdk25): no sweeper.
        deoptThenNewCode("deopt-then-new-code-jdk21"),
        deoptThenNewCode("deopt-then-new-code-jdk25"));
  }

  /**
   * One TlsHandshakeStorm within {@code bound} s of the storm, resolved; the wave pages nothing.
   */
  private static Scenario tlsStormThenWave(String fixture, int bound) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of(
                    "TlsHandshakeStorm",
                    "phase=full-handshakes ",
                    bound,
                    "handshakes/s with localhost:")
                .resolvedWithin(30, "phase=after-storm")));
  }

  /**
   * GcOverhead names GC pauses, not the churn, and resolves once the allocation stops while
   * CodeCacheChurn goes on; {@code tolerated}: the churn's other true consequences.
   */
  private static Scenario gcDuringChurn(String fixture, Set<String> tolerated) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of("CodeCacheChurn", "phase=churn ", 60, "compiled again")
                .notNaming("GC pauses"),
            Expected.of("GcOverhead", "phase=gc ", 60, "of time in GC pauses")
                .resolvedWithin(30, "phase=gc-over")
                .notNaming("code cache", "compiled again")),
        tolerated);
  }

  private static Scenario deoptThenNewCode(String fixture) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of(
                    "DeoptimizationStorm", "phase=deopt ", 30, "io.jvmsentinel.lab.DeoptTemplate.")
                .resolvedWithin(30, "phase=after-storm")));
  }

  private static Scenario stormThenBursts(String fixture) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of("ThreadStorm", "phase=storm ", 10, DISPATCHER)
                .resolvedWithin(30, "phase=after-storm")));
  }

  private static Scenario stormThenBurstsJmxOnly(String fixture) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of("ThreadStorm", "phase=storm ", 10, "thread starts/s")
                .resolvedWithin(30, "phase=after-storm")));
  }

  private static Scenario flapsThenRecurs(String fixture) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of("ThreadStorm", "phase=flap-1 ", 10, DISPATCHER)
                .resolvedWithin(30, "phase=flaps-over"),
            Expected.of("ThreadStorm", "phase=recurs ", 15, DISPATCHER)
                .resolvedWithin(30, "phase=quiet")));
  }

  private static Scenario duringContention(String fixture) {
    return new Scenario(
        fixture,
        WarmUp.DEFAULT,
        List.of(
            Expected.of("LockContention", "phase=contention ", 15, CONTENTION)
                .resolvedWithin(30, "phase=contention-over")
                .notNaming(DISPATCHER),
            Expected.of("ThreadStorm", "phase=storm ", 10, DISPATCHER)
                .resolvedWithin(30, "phase=storm-over")
                .notNaming("SlowCloseConnectionCache")));
  }
}
