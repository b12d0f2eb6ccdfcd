package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JDK 11 target whose JFR is unavailable, watched with the default poll interval (10 s): the fast
 * detection poll still pages a thread storm from JMX within 20 s and says why the creator is
 * unknown with the true reason; without it, the daemon says the rule cannot judge, and why.
 *
 * <p>The FlightRecorder MBean is really missing: the target runs with {@code --limit-modules}
 * leaving out {@code jdk.management.jfr} (the lab uses JDK classes only).
 */
class JmxOnlyDetectionIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NO_MBEAN =
      "the target has no FlightRecorder MBean (a JDK 8 before 8u262, or a JVM without JFR), so only"
          + " JMX metrics are collected";
  private static final List<String> JFR_ONLY =
      List.of("CodeCacheChurn", "DeoptimizationStorm", "TlsHandshakeStorm");

  @TempDir Path dir;

  /** thread-per-request at 150 threads/s from 10 s after start, on JDK 11 without JFR's MBean. */
  private static LabProcess stormWithoutFlightRecorder() throws Exception {
    return LabSpec.builder("thread-per-request")
        .javaHome(Jdks.jdk11())
        .jvmArgs("--limit-modules", "java.se,jdk.management.agent,jdk.management,jdk.unsupported")
        .rate(150)
        .delay(Duration.ofSeconds(10))
        .duration(Duration.ofSeconds(90))
        .build()
        .startReady(Duration.ofSeconds(30));
  }

  /** The default detection and poll interval; no JFR evidence snapshots (there is no JFR). */
  private static String config(String jmx, String detection) {
    return """
        detection:
          snapshots:
            directory: ""
        %s
        targets:
          - name: lab
            jmx: %s
        """
        .formatted(detection, jmx);
  }

  @Test
  void theStormPagesFromJmxWithinTwentySecondsSayingWhyItsCreatorIsUnknown() throws Exception {
    try (LabProcess lab = stormWithoutFlightRecorder();
        SentinelDaemon daemon = Daemons.start(dir, config(lab.jmxHostPort(), ""))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Instant onset =
          Instant.ofEpochMilli(lab.awaitOnset("storm", Duration.ofSeconds(30)).atEpochMillis());

      ActiveAlert fired =
          await()
              .atMost(Duration.ofSeconds(40))
              .pollInterval(Duration.ofMillis(250))
              .until(() -> firing(daemon, "ThreadStorm"), Optional::isPresent)
              .orElseThrow();
      Duration latency = Duration.between(onset, fired.since());
      System.out.printf(
          "JDK 11 without FlightRecorder: ThreadStorm fired %d ms after onset: %s%n",
          latency.toMillis(), fired.finding().summary());
      assertThat(latency).as("detection latency").isLessThanOrEqualTo(Duration.ofSeconds(20));
      assertThat(fired.finding().evidence()).containsEntry("source", "JMX TotalStartedThreadCount");
      assertThat(fired.finding().explanation())
          .contains("Its creator sites are unknown")
          .contains("(" + NO_MBEAN + ")")
          .doesNotContain("JDK 15");

      JsonNode target = target(http);
      assertThat(target.path("jfr").asText()).isEqualTo(NO_MBEAN);
      assertThat(target.path("jvm").path("featureVersion").asInt()).isEqualTo(11);
      JsonNode rules = target.path("rules");
      assertThat(rules.path("ThreadStorm").asText())
          .isEqualTo("judged from JMX TotalStartedThreadCount every 1 s");
      for (String rule : JFR_ONLY) {
        assertThat(rules.path(rule).asText())
            .as(rule)
            .startsWith("not judged: needs JFR ")
            .endsWith("; this target has none (" + NO_MBEAN + ")");
      }
    }
  }

  @Test
  void withoutTheFastPollTheStormIsNotJudgedAndTheDaemonSaysWhy() throws Exception {
    try (LabProcess lab = stormWithoutFlightRecorder();
        SentinelDaemon daemon =
            Daemons.start(dir, config(lab.jmxHostPort(), "  signalPollInterval: 0s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Daemons.awaitUp(http, "lab");
      assertThat(target(http).path("rules").path("ThreadStorm").asText())
          .isEqualTo(
              "not judged: thread counts arrive every 10 s, the rule's 5 s window needs a reading"
                  + " at least every 2.5 s");
      lab.awaitOnset("storm", Duration.ofSeconds(30));
      double startedAtOnset = started(http);

      // 20 s of storm, two full polls: the count is seen rising, and still no alert.
      await()
          .during(Duration.ofSeconds(20))
          .atMost(Duration.ofSeconds(25))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> firing(daemon, "ThreadStorm").isEmpty());
      assertThat(started(http) - startedAtOnset)
          .as("thread starts the daemon saw during the storm")
          .isGreaterThan(1000);
      assertThat(daemon.detection().active()).isEmpty();
      assertThat(target(http).path("rules").path("ThreadStorm").asText())
          .startsWith("not judged: thread counts arrive every 10 s");
    }
  }

  private static double started(DaemonHttp http) {
    return http.scrape()
        .value("jvm_threads_started_threads_total", Map.of("target", "lab"))
        .orElse(Double.NaN);
  }

  private static JsonNode target(DaemonHttp http) throws Exception {
    return JSON.readTree(http.get("/api/v1/targets").body()).path("targets").get(0);
  }

  private static Optional<ActiveAlert> firing(SentinelDaemon daemon, String rule) {
    return daemon.detection().active().stream()
        .filter(a -> a.ruleId().equals(rule) && a.state() == ActiveAlert.State.FIRING)
        .findFirst();
  }
}
