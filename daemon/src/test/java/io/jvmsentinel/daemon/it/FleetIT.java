package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fleet mode on real forked JVMs: {@code --discover local} watches the lab JVMs started after the
 * daemon, forgets each that exits (its series go), and one SIGSTOPped target delays neither the
 * others' polling nor a target added meanwhile. The labs carry a label of this run, so the other
 * JVMs of the host (other test runs) are filtered out as an operator's include filter would.
 */
class FleetIT {
  private static final Duration READY = Duration.ofSeconds(30);
  private static final Duration UP = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final String label = "fleet-" + UUID.randomUUID();
  private final List<LabProcess> labs = new ArrayList<>();

  @AfterEach
  void stopLabs() {
    labs.forEach(LabProcess::close);
  }

  @Test
  void discoveredTargetsComeAndGoAndAStoppedOneDelaysNoOther() throws Exception {
    long started = System.nanoTime();
    try (SentinelDaemon daemon = startDaemon()) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      assertThat(daemon.targets()).isEmpty();

      LabProcess stopped = lab();
      LabProcess steady = lab();
      String stoppedName = "LabMain-" + stopped.pid();
      String steadyName = "LabMain-" + steady.pid();
      awaitUp(http, stoppedName);
      awaitUp(http, steadyName);
      // Tags from discovery, on the series.
      assertThat(
              http.scrape()
                  .value(
                      "jvm_sentinel_target_up",
                      Map.of(
                          "target",
                          steadyName,
                          "main_class",
                          LabSpec.MAIN_CLASS,
                          "pid",
                          Long.toString(steady.pid()))))
          .contains(1.0);

      stopped.suspend();
      double polls = polls(http.scrape(), steadyName);
      long addedAt = System.nanoTime();
      LabProcess added = lab();
      String addedName = "LabMain-" + added.pid();
      awaitUp(http, addedName);
      long addedUpMs = (System.nanoTime() - addedAt) / 1_000_000;
      // The steady target keeps polling (every second) while the other hangs.
      await()
          .atMost(UP)
          .untilAsserted(
              () -> assertThat(polls(http.scrape(), steadyName)).isGreaterThanOrEqualTo(polls + 3));
      assertThat(stopped.isSuspended()).isTrue();
      stopped.resume();

      steady.kill();
      await()
          .atMost(UP)
          .untilAsserted(
              () -> {
                assertThat(http.get("/api/v1/targets").body()).doesNotContain(steadyName);
                assertThat(http.scrape().samples())
                    .noneMatch(s -> steadyName.equals(s.labels().get("target")));
              });
      assertThat(daemon.targets())
          .extracting(t -> t.name())
          .containsExactlyInAnyOrder(stoppedName, addedName);
      System.out.printf(
          "FleetIT: a target added while another was SIGSTOPped was up %d ms after its JVM"
              + " started; whole test %d s%n",
          addedUpMs, (System.nanoTime() - started) / 1_000_000_000);
    }
  }

  @Test
  void fixedAndDiscoveredTargetsShareOneLabelSetAndOneJvmIsWatchedOnce() throws Exception {
    LabProcess fixed = lab();
    String fixedTarget =
        """
        targets:
          - {name: orders, pid: %d, pollInterval: 1s, tags: {app: orders}}
        """
            .formatted(fixed.pid());
    try (SentinelDaemon daemon = startDaemon(fixedTarget)) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      LabProcess discovered = lab();
      String discoveredName = "LabMain-" + discovered.pid();
      awaitUp(http, "orders");
      awaitUp(http, discoveredName);

      PrometheusText scrape = http.scrape();
      // The fixed target has its tag and no discovery tags; the discovered one the reverse
      // (an empty label value is no label, to Prometheus).
      assertThat(scrape.samples())
          .filteredOn(s -> s.name().equals("jvm_sentinel_target_up"))
          .extracting(s -> withValues(s.labels()))
          .containsExactlyInAnyOrder(
              Map.of("target", "orders", "app", "orders"),
              Map.of(
                  "target",
                  discoveredName,
                  "main_class",
                  LabSpec.MAIN_CLASS,
                  "pid",
                  Long.toString(discovered.pid())));
      // Discovery also lists the fixed target's JVM: watched once, under the fixed name.
      assertThat(daemon.targets())
          .extracting(t -> t.name())
          .containsExactlyInAnyOrder("orders", discoveredName);
      assertThat(scrape.value("jvm_sentinel_targets_skipped", Map.of("reason", "same_jvm")))
          .contains(1.0);
      assertThat(scrape.value("jvm_sentinel_targets", Map.of("source", "discovery.local")))
          .contains(1.0);
    }
  }

  private SentinelDaemon startDaemon() throws Exception {
    return startDaemon("");
  }

  private SentinelDaemon startDaemon(String targets) throws Exception {
    // Every filter field at once: the lab's main class, this run's label, this user.
    Path file = Files.createTempFile(dir, "sentinel", ".yaml");
    Files.writeString(
        file,
        Daemons.connectionYaml()
            + targets
            + """
            discovery:
              local:
                interval: 1s
                pollInterval: 1s
                include:
                  - mainClass: '^%s$'
                    commandLine: '--label %s'
                    user: '^%s$'
            """
                .formatted(
                    Pattern.quote(LabSpec.MAIN_CLASS),
                    label,
                    ProcessHandle.current().info().user().orElseThrow()));
    return SentinelDaemon.start(new ConfigLoader().load(file));
  }

  private LabProcess lab() throws Exception {
    LabProcess lab =
        LabSpec.builder("idle")
            .withoutJmxRemote()
            .args("--label", label)
            .jvmArgs("-Xmx64m")
            .build()
            .startReady(READY);
    labs.add(lab);
    return lab;
  }

  private static void awaitUp(DaemonHttp http, String name) {
    await()
        .atMost(UP)
        .untilAsserted(
            () ->
                assertThat(http.scrape().value("jvm_sentinel_target_up", Map.of("target", name)))
                    .contains(1.0));
  }

  private static Map<String, String> withValues(Map<String, String> labels) {
    Map<String, String> present = new java.util.HashMap<>(labels);
    present.values().removeIf(String::isEmpty);
    return present;
  }

  private static double polls(PrometheusText scrape, String name) {
    return scrape.sum("jvm_sentinel_poll_duration_seconds_count", Map.of("target", name));
  }
}
