package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The incident lab as acceptance tests: each scenario reproduces its incident's mechanism in a real
 * JVM, and the daemon, with its default rules, must raise the expected alert within a stated bound
 * of the scenario's onset, with the expected evidence, and resolve it once the scenario stops.
 * (Thread storms from the TLS listener are in DetectionIT.)
 *
 * <p>Only what no recorded replay ({@code ScenarioReplayTest}) and no other suite IT covers runs
 * here (issue 27): the incidents on JDK 25 that no replay holds, TlsHandshakeStorm and its resolve
 * (no fixture), the lock holder's live dump and codecache-churn judged ClassLoaderChurn on JDK 17
 * (the healthy service on JDK 11 to 25 is HealthyTargetsIT), and the deoptimisation storm on JDK
 * 11, inferred without its event. Covered elsewhere, so not here: thread-per-request, deopt-storm
 * and gc-pressure on JDK 17 (their firing, cause, bound and resolve in the replays of {@code
 * mixed-jdk17} and {@code mixed-matrix-jdk17}; ThreadStorm live in OverloadIT, StormPauseIT and
 * SnapshotMatrixIT, GcOverhead live in SnapshotMatrixIT), and codecache-churn on JDK 25
 * (CodeCacheChurn, ClassLoaderChurn silent: the replay of {@code codecache-churn-4m-jdk25}).
 */
class ScenarioSuiteIT {
  /** A short warm-up so JIT incidents are judged within the test's time. */
  private static final String DETECTION =
      """
      detection:
        warmup: 20s
        warmupMax: 30s
        snapshots:
          directory: ""
      """;

  @TempDir Path dir;

  /** One scenario: its lab, the phase that starts it, the alert, the bound and the evidence. */
  record Case(
      String scenario,
      int jdk,
      List<String> args,
      String onsetPhase,
      String rule,
      Duration bound,
      Predicate<ActiveAlert> evidence,
      Duration stopAfter) {
    /** The incident stops after {@code stopAfter} (zero: it runs on) and its alert must resolve. */
    boolean checkResolve() {
      return !stopAfter.isZero();
    }

    @Override
    public String toString() {
      return scenario + " on JDK " + jdk + " -> " + rule;
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
            new Case(
                "thread-per-request",
                25,
                List.of("--rate", "200"),
                "storm",
                "ThreadStorm",
                Duration.ofSeconds(10),
                a ->
                    a.finding().summary().contains("io.jvmsentinel.lab.RequestDispatcher.dispatch"),
                Duration.ZERO),
            // Incident 3's mechanism: the lock and the code holding it (from the holder dump).
            new Case(
                "lock-contention",
                17,
                List.of(),
                "contention",
                "LockContention",
                Duration.ofSeconds(15),
                a ->
                    a.finding().summary().contains("io.jvmsentinel.lab.SlowCloseConnectionCache")
                        && a.finding().evidence().get("holder") instanceof java.util.Map<?, ?> h
                        && String.valueOf(h.get("lockedAt"))
                            .equals("io.jvmsentinel.lab.SlowCloseConnectionCache.put")
                        && String.valueOf(h.get("stack")).contains("closeSlowly"),
                Duration.ZERO),
            new Case(
                "tls-full-handshakes",
                17,
                List.of("--rate", "40"),
                "full-handshakes",
                "TlsHandshakeStorm",
                Duration.ofSeconds(40),
                a ->
                    a.key().startsWith("localhost:")
                        && ((Number) a.finding().evidence().get("fullShare")).doubleValue() > 0.9,
                // Stopped 5 s after the bound: it must have fired by then (15 s measured).
                Duration.ofSeconds(45)),
            new Case(
                "codecache-full",
                17,
                List.of(),
                "full",
                "CodeCacheFull",
                Duration.ofSeconds(10),
                a -> a.finding().summary().contains("JIT compilation disabled"),
                Duration.ZERO),
            new Case(
                "codecache-full",
                25,
                List.of(),
                "full",
                "CodeCacheFull",
                Duration.ofSeconds(10),
                a -> a.finding().evidence().containsKey("segments"),
                Duration.ZERO),
            // On JDK 17 the lab's fresh class copies keep its 4 MB cache at 60-75%, never near the
            // maximum: by mechanism that is class loaders dropped and reloaded (a larger cache
            // would not help), so ClassLoaderChurn, not CodeCacheChurn (issue 26). The near-full
            // form of incident 4 pages CodeCacheChurn in the replays (churn-from-boot, 4 MB).
            new Case(
                "codecache-churn",
                17,
                List.of(),
                "churn",
                "ClassLoaderChurn",
                Duration.ofSeconds(90),
                a -> a.finding().summary().contains("class loaders are dropped and reloaded"),
                Duration.ZERO),
            // The same incidents on JDK 25 (its code cache churn is judged in the replays).
            new Case(
                "tls-full-handshakes",
                25,
                List.of("--rate", "40"),
                "full-handshakes",
                "TlsHandshakeStorm",
                Duration.ofSeconds(40),
                a ->
                    a.key().startsWith("localhost:")
                        && ((Number) a.finding().evidence().get("fullShare")).doubleValue() > 0.9,
                Duration.ZERO),
            new Case(
                "deopt-storm",
                25,
                List.of(),
                "deopt",
                "DeoptimizationStorm",
                Duration.ofSeconds(90),
                a ->
                    a.finding().evidence().get("mostDeoptimizedMethods") instanceof List<?> l
                        && !l.isEmpty(),
                Duration.ZERO),
            // JDK 11 has no jdk.Deoptimization: the storm inferred from the code it throws away
            // (its resolve is judged in the replay of deopt-storm-jdk11).
            new Case(
                "deopt-storm",
                11,
                List.of(),
                "deopt",
                "DeoptimizationStorm",
                Duration.ofSeconds(90),
                a ->
                    a.finding().summary().contains("compiled code thrown away and recompiled")
                        && a.finding().evidence().get("mostRecompiledMethods") instanceof List<?> l
                        && l.toString().contains("io.jvmsentinel.lab.DeoptTemplate."),
                Duration.ZERO),
            // 80 MB/s, not the default 200: 38% of the time in GC pauses alone (83% at 200). A
            // target thrashing at 90% on a loaded 2-core runner leaves the JMX calls unanswered
            // (a 2 s call timeout) for minutes, and the daemon pages once it answers again
            // (GcFreezeIT judges that): at 200, 71 s and 101 s in CI beside HostileTargetIT, and
            // no page in 5.5 min beside two busy loops, where 80 paged in 63 s.
            new Case(
                "gc-pressure",
                25,
                List.of("--rate", "80"),
                "gc",
                "GcOverhead",
                Duration.ofSeconds(100),
                a -> number(a, "pauseShareOfWallTime") > 0.2,
                Duration.ZERO))
        .map(Arguments::of);
  }

  /** A numeric evidence value, 0 when absent. */
  private static double number(ActiveAlert alert, String key) {
    return alert.finding().evidence().get(key) instanceof Number n ? n.doubleValue() : 0;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theDaemonCatchesTheIncidentAndNamesItsCause(Case c) throws Exception {
    List<String> args = new ArrayList<>(c.args());
    if (c.checkResolve()) {
      // The incident runs for a while, then the lab idles so the alert can resolve.
      args.addAll(List.of("--duration", c.stopAfter().toSeconds() + "s", "--linger", "300s"));
    }
    Path javaHome = Jdks.jdk(c.jdk());
    try (LabProcess lab =
            LabScenarios.builder(c.scenario(), javaHome, c.jdk())
                .args(args.toArray(new String[0]))
                .build()
                .startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            Daemons.start(dir, DETECTION + Daemons.target("lab", lab.jmxHostPort(), "2s"))) {
      LabEvent onset = lab.awaitOnset(c.onsetPhase(), Duration.ofSeconds(60));
      Instant onsetAt = Instant.ofEpochMilli(onset.atEpochMillis());

      ActiveAlert fired =
          await()
              .atMost(c.bound().plusSeconds(30))
              .pollInterval(Duration.ofMillis(250))
              .until(() -> firing(daemon, c.rule()), Optional::isPresent)
              .orElseThrow();
      Duration latency = Duration.between(onsetAt, fired.since());
      System.out.printf(
          "%s: fired %d ms after onset: %s%n", c, latency.toMillis(), fired.finding().summary());
      assertThat(latency).as("detection latency of " + c).isLessThanOrEqualTo(c.bound());
      assertThat(fired.finding().evidence()).isNotEmpty();
      assertThat(c.evidence().test(fired))
          .as("evidence of " + c + ": " + fired.finding().evidence())
          .isTrue();

      if (c.checkResolve()) {
        lab.awaitOnset("linger", Duration.ofSeconds(120));
        await()
            .atMost(Duration.ofSeconds(150))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> firing(daemon, c.rule()).isEmpty());
        System.out.printf("%s: resolved after the scenario stopped%n", c);
      }
    }
  }

  private static Optional<ActiveAlert> firing(SentinelDaemon daemon, String rule) {
    return daemon.detection().active().stream()
        .filter(a -> a.ruleId().equals(rule) && a.state() == ActiveAlert.State.FIRING)
        .findFirst();
  }
}
