package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.Rules;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which rules can judge a target with the data it really delivers, and the words that say why not:
 * what {@code /api/v1/targets} lists per target.
 */
class RuleCoverageTest {
  private static final String JDK11 =
      "the target runs Java 11; remote JFR streaming needs Java 16 or newer, so only JMX metrics are"
          + " collected";
  private static final Duration TEN = Duration.ofSeconds(10);
  private static final Duration ONE = Duration.ofSeconds(1);

  /** A JMX-only target: no JFR events, full poll every 10 s, detection values every 1 s. */
  private static final RuleCoverage.Sources JMX_FAST =
      new RuleCoverage.Sources(false, JDK11, TEN, ONE);

  /** The same with the fast detection poll off: detection values arrive with the full poll. */
  private static final RuleCoverage.Sources JMX_SLOW =
      new RuleCoverage.Sources(false, JDK11, TEN, TEN);

  private static final RuleCoverage.Sources JFR =
      new RuleCoverage.Sources(true, "streaming", TEN, ONE);

  private static RuleCoverage coverage(RuleSettings settings) {
    return new RuleCoverage(Rules.all(), settings, true, ONE);
  }

  private static Map<String, String> judged(RuleCoverage.Sources sources) {
    return coverage(RuleSettings.DEFAULTS).judgements("orders", sources);
  }

  @Test
  void everyRuleIsListedInRuleOrder() {
    assertThat(judged(JMX_FAST).keySet())
        .containsExactlyElementsOf(Rules.all().stream().map(AlertRule::id).toList());
  }

  @Test
  void aJmxOnlyTargetWithTheFastPollIsJudgedOnEverythingButJfrEvents() {
    Map<String, String> judged = judged(JMX_FAST);

    assertThat(judged)
        .containsEntry("ThreadStorm", "judged from JMX TotalStartedThreadCount every 1 s")
        .containsEntry("LockContention", "judged from JMX thread states (BLOCKED) every 1 s")
        .containsEntry("CodeCacheNearFull", "judged from JMX code cache memory pools every 1 s")
        .containsEntry(
            "CodeCacheFull", "judged from JMX DiagnosticCommand compilerCodecache every 1 s")
        .containsEntry(
            "CompilerCpuHigh", "judged from JMX DiagnosticCommand threadPrint every 10 s")
        .containsEntry("GcOverhead", "judged from JMX GC notifications as they arrive")
        .containsEntry("TargetDown", "judged from the JMX connection as they arrive")
        .containsEntry(
            "CodeCacheChurn",
            "not judged: needs JFR compilation events; this target has none (" + JDK11 + ")")
        .containsEntry(
            "DeoptimizationStorm",
            "not judged: needs JFR deoptimization events; this target has none (" + JDK11 + ")")
        .containsEntry(
            "TlsHandshakeStorm",
            "not judged: needs JFR TLS handshake events; this target has none (" + JDK11 + ")");
  }

  @Test
  void withoutTheFastPollAWindowOfSecondsCannotBeJudgedAndSaysWhy() {
    Map<String, String> judged = judged(JMX_SLOW);

    assertThat(judged)
        .containsEntry(
            "ThreadStorm",
            "not judged: thread counts arrive every 10 s, the rule's 5 s window needs a reading at"
                + " least every 2.5 s")
        .containsEntry(
            "LockContention",
            "not judged: thread states arrive every 10 s, the rule's 12 s window in 6 sub-windows"
                + " needs a reading at least every 2 s")
        // Longer windows, or the latest value only, are judged at the poll's cadence.
        .containsEntry("CodeCacheNearFull", "judged from JMX code cache memory pools every 10 s")
        .containsEntry(
            "CompilerCpuHigh", "judged from JMX DiagnosticCommand threadPrint every 10 s")
        .containsEntry("GcOverhead", "judged from JMX GC notifications as they arrive");
  }

  @Test
  void theEffectiveThresholdsOfEachTargetDecide() {
    // orders judges storms over 30 s: a reading every 10 s fills both 15 s halves.
    RuleSettings settings =
        new RuleSettings(
            Map.of(),
            Map.of("orders", Map.of("ThreadStorm", Map.of("windowSeconds", 30.0))),
            List.of());

    assertThat(coverage(settings).judgements("orders", JMX_SLOW))
        .containsEntry("ThreadStorm", "judged from JMX TotalStartedThreadCount every 10 s");
    assertThat(coverage(settings).judgements("billing", JMX_SLOW).get("ThreadStorm"))
        .startsWith("not judged: thread counts arrive every 10 s");
    // A global override applies to every target; a target's own override wins over it.
    RuleSettings global =
        new RuleSettings(
            Map.of("ThreadStorm", Map.of("windowSeconds", 3.0)),
            Map.of("orders", Map.of("ThreadStorm", Map.of("windowSeconds", 30.0))),
            List.of());
    assertThat(coverage(global).judgements("billing", JMX_FAST))
        .containsEntry("ThreadStorm", "judged from JMX TotalStartedThreadCount every 1 s");
    assertThat(coverage(global).judgements("billing", JMX_SLOW))
        .containsEntry(
            "ThreadStorm",
            "not judged: thread counts arrive every 10 s, the rule's 3 s window needs a reading at"
                + " least every 1.5 s");
    assertThat(coverage(global).judgements("orders", JMX_SLOW))
        .containsEntry("ThreadStorm", "judged from JMX TotalStartedThreadCount every 10 s");
  }

  @Test
  void aTargetWithJfrEventsIsJudgedFromThemAndFromTheFullPoll() {
    Map<String, String> judged = judged(JFR);

    assertThat(judged)
        .containsEntry("ThreadStorm", "judged from JFR jdk.ThreadStart events")
        .containsEntry(
            "LockContention", "judged from JFR jdk.JavaMonitorEnter and jdk.ThreadPark events")
        .containsEntry("CompilerCpuHigh", "judged from JFR jdk.ThreadCPULoad events")
        .containsEntry(
            "DeoptimizationStorm",
            "judged from JFR jdk.Deoptimization and jdk.Compilation events and JMX code cache memory"
                + " pools every 10 s")
        .containsEntry("TlsHandshakeStorm", "judged from JFR jdk.TLSHandshake events")
        // No fast poll while JFR events flow: the pools are read every poll.
        .containsEntry(
            "CodeCacheChurn",
            "judged from JFR jdk.Compilation events and JMX code cache memory pools every 10 s");
  }

  @Test
  void nothingReachesTheRulesFasterThanTheDetectionTick() {
    RuleCoverage everyThreeSeconds =
        new RuleCoverage(Rules.all(), RuleSettings.DEFAULTS, true, Duration.ofSeconds(3));

    assertThat(everyThreeSeconds.judgements("orders", JMX_FAST))
        .containsEntry(
            "ThreadStorm",
            "not judged: thread counts are sampled every 3 s (detection.interval), the rule's 5 s"
                + " window needs a reading at least every 2.5 s");
    assertThat(everyThreeSeconds.judgements("orders", JFR).get("ThreadStorm"))
        .startsWith("not judged: thread counts are sampled every 3 s (detection.interval)");
  }

  @Test
  void switchedOffRulesAndDetectionSayWhy() {
    RuleSettings disabled =
        new RuleSettings(Map.of(), Map.of(), List.of("ThreadStorm", "GcOverhead"));

    assertThat(coverage(disabled).judgements("orders", JFR))
        .containsEntry("ThreadStorm", "not judged: switched off (detection.disabled)")
        .containsEntry("GcOverhead", "not judged: switched off (detection.disabled)")
        .containsEntry("TargetDown", "judged from the JMX connection as they arrive");
    assertThat(
            new RuleCoverage(Rules.all(), RuleSettings.DEFAULTS, false, ONE)
                .judgements("orders", JFR)
                .values())
        .containsOnly("not judged: detection is off (detection.enabled: false)");
  }

  @Test
  void anUnknownJfrStateIsNotGuessed() {
    assertThat(judged(new RuleCoverage.Sources(false, null, TEN, ONE)))
        .containsEntry(
            "CodeCacheChurn",
            "not judged: needs JFR compilation events; this target has none (JFR state unknown)");
  }

  @Test
  void aRuleNeedsJfrExactlyWhenOneOfItsInputsOnlyJfrCarries() {
    for (AlertRule rule : Rules.all()) {
      List<RuleInput> inputs = rule.inputs(RuleSettings.DEFAULTS.thresholds(rule, "orders"));
      assertThat(inputs).as(rule.id() + " declares its inputs").isNotEmpty();
      assertThat(inputs.stream().anyMatch(input -> input.signal().jfrOnly()))
          .as(rule.id() + ": needsJfr() and its inputs agree")
          .isEqualTo(rule.needsJfr());
    }
  }

  @Test
  void durationsAreWrittenInSeconds() {
    assertThat(RuleCoverage.seconds(Duration.ofSeconds(10))).isEqualTo("10 s");
    assertThat(RuleCoverage.seconds(Duration.ofMillis(2500))).isEqualTo("2.5 s");
    assertThat(RuleCoverage.seconds(Duration.ofMillis(500))).isEqualTo("0.5 s");
    assertThat(RuleCoverage.seconds(Duration.ofMillis(1250))).isEqualTo("1.25 s");
  }

  @Test
  void aJdk11ChunkFeedJudgesDeoptimizationStormFromTheCompilationsItHasForTheEventItLacks() {
    RuleCoverage.Sources jdk11Chunks =
        new RuleCoverage.Sources(
            true,
            "reading the recording in chunks every 2s (Java 11 has no remote streaming)",
            TEN,
            ONE,
            Set.of("jdk.Deoptimization", "jdk.JITRestart"));

    Map<String, String> judged = judged(jdk11Chunks);

    assertThat(judged.get("DeoptimizationStorm"))
        .isEqualTo(
            "judged from JFR jdk.Compilation events (its JVM has no jdk.Deoptimization) and JMX"
                + " code cache memory pools every 10 s");
    assertThat(judged.get("CodeCacheChurn")).startsWith("judged from JFR jdk.Compilation events");
    assertThat(judged.get("ThreadStorm")).isEqualTo("judged from JFR jdk.ThreadStart events");
  }
}
