package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.ForkedDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.SentinelJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets that attack the daemon (issue 25): one packaged daemon watches a healthy lab JVM beside
 * hostile ones. The daemon refuses each attack with one clear log line, stays up, and keeps
 * watching the healthy target.
 */
class HostileTargetIT {
  private static final Duration READY = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<LabProcess> labs = new ArrayList<>();

  @AfterEach
  void stopLabs() {
    labs.forEach(LabProcess::stop);
  }

  @Test
  void jmxRepliesWithUnexpectedClassesOrOversizedArraysAreRefused() throws Exception {
    LabProcess healthy = lab(LabSpec.builder("healthy").javaHome(Jdks.jdk17()).build());
    LabProcess gadget = lab(LabSpec.builder("hostile-reply-class").javaHome(Jdks.jdk17()).build());
    LabProcess array = lab(LabSpec.builder("hostile-reply-array").javaHome(Jdks.jdk11()).build());
    gadget.awaitOnset("hostile-reply-class", READY);
    array.awaitOnset("hostile-reply-array", READY);

    try (ForkedDaemon daemon =
        startDaemon(
            Map.of(
                "healthy", healthy.jmxHostPort(),
                "gadget", gadget.jmxHostPort(),
                "array", array.jmxHostPort()))) {
      DaemonHttp http = daemon.http();
      await()
          .atMost(READY)
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                String log = daemon.log();
                assertThat(log)
                    .contains("Refused a reply from a target")
                    .contains("class io.jvmsentinel.lab.HostileReplyScenario$Payload")
                    .contains("an array of 2000000 entries");
                assertThat(up(http, "healthy")).isEqualTo(1.0);
              });
      double pollsBefore = polls(http);
      // The healthy target is still read: its polls go on while the hostile ones fail.
      await().atMost(READY).untilAsserted(() -> assertThat(polls(http)).isGreaterThan(pollsBefore));
      assertThat(up(http, "gadget")).isEqualTo(0.0);
      assertThat(up(http, "array")).isEqualTo(0.0);
      assertThat(daemon.isAlive()).isTrue();
      assertThat(http.get("/health").statusCode()).isEqualTo(200);
      // The payload's readObject never ran in the daemon.
      String log = daemon.log();
      assertThat(log).doesNotContain("LAB hostile payload deserialized");
      // One line per target and kind of refusal, not one per reconnect.
      assertThat(log.lines().filter(line -> line.contains("[target-gadget] TargetReplyFilter")))
          .hasSize(1);
    }
  }

  @Test
  void aForgedTenKilobyteMainClassAndThreadNamesWithLineBreaksGiveOneCleanTargetAndCleanLogLines()
      throws Exception {
    String label = "healthy-" + System.nanoTime();
    LabProcess healthy =
        lab(LabSpec.builder("healthy").javaHome(Jdks.jdk17()).args("--label", label).build());
    // The rewrite can only fill the argv area the JVM started with: give it 11,000 characters.
    LabProcess hostile =
        lab(
            LabSpec.builder("hostile-text")
                .javaHome(Jdks.jdk17())
                .args("--label", "x".repeat(11_000))
                .build());
    hostile.awaitOnset("hostile-text", READY);

    int port = LoopbackPorts.freePort();
    String yaml =
        Daemons.connectionYaml().replace("127.0.0.1:0", "127.0.0.1:" + port)
            + """
            discovery:
              local:
                interval: 1s
                pollInterval: 1s
                include:
                  - commandLine: 'hostile-text-marker'
                  - commandLine: '--label %s'
            """
                .formatted(label);
    try (ForkedDaemon daemon = ForkedDaemon.start(dir, yaml, port)) {
      DaemonHttp http = daemon.http();
      Map<String, String> hostilePid = Map.of("pid", Long.toString(hostile.pid()));
      Map<String, String> healthyPid = Map.of("pid", Long.toString(healthy.pid()));
      await()
          .atMost(READY)
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                assertThat(scrape.value("jvm_sentinel_target_up", hostilePid)).contains(1.0);
                assertThat(scrape.value("jvm_sentinel_target_up", healthyPid)).contains(1.0);
              });
      PrometheusText.Sample up = http.scrape().series("jvm_sentinel_target_up", hostilePid).get(0);
      String mainClass = up.labels().get("main_class");
      assertThat(mainClass).hasSize(128).startsWith("_[2K_hostile-text-marker__AAA");
      assertThat(up.labels().get("target"))
          .hasSizeLessThanOrEqualTo(128 + 1 + 7)
          .matches("[A-Za-z0-9_.-]+");
      // The threads API and the JFR thread tables carry the hostile threads, bounded and clean.
      String targets = http.get("/api/v1/targets").body();
      assertThat(targets).doesNotContain("\u001b", "\\u001B", "\\r\\n", "T".repeat(200));

      double pollsBefore = polls(http, healthyPid);
      await()
          .atMost(READY)
          .untilAsserted(() -> assertThat(polls(http, healthyPid)).isGreaterThan(pollsBefore));
      assertThat(daemon.isAlive()).isTrue();
      String log = daemon.log();
      assertThat(log.lines())
          .allSatisfy(
              line ->
                  assertThat(line)
                      .matches(
                          "^(\\d{4}-\\d{2}-\\d{2}T.*|\\s+at .*|Caused by: .*|\\s+\\.\\.\\. \\d+ more"
                              + "|[\\w$.]+(Exception|Error)(: .*)?|Picked up .*)$"));
      assertThat(log).doesNotContain("\u001b", "\u0007", "\u2028", "\u202E");
      // One line names the target: watched, with its cleaned, capped name.
      assertThat(log.lines().filter(l -> l.contains("watching target") && l.contains("hostile")))
          .hasSize(1);
    }
  }

  /**
   * The daemon started with the image's ENTRYPOINT flags: a process of its own user (the app beside
   * a pid sidecar) cannot attach to it, while the daemon still attaches to the app.
   */
  @Test
  void theDaemonAsTheImageStartsItRefusesAttachAndStillAttachesToItsTarget() throws Exception {
    LabProcess app =
        lab(LabSpec.builder("healthy").javaHome(Jdks.jdk17()).withoutJmxRemote().build());
    String entrypoint =
        Files.readString(Jdks.repoRoot().resolve("deploy/Dockerfile"))
            .lines()
            .filter(line -> line.startsWith("ENTRYPOINT "))
            .reduce((first, last) -> last)
            .orElseThrow();
    List<String> command = new ArrayList<>();
    for (String word :
        new ObjectMapper()
            .readValue(entrypoint.substring("ENTRYPOINT ".length()), String[].class)) {
      command.add(
          switch (word) {
            case "java" -> Jdks.java(Jdks.jdk17()).toString();
            case "/app/jvm-sentinel.jar" -> SentinelJar.jar().toString();
            case "-Djava.io.tmpdir=/tmp" -> "-Djava.io.tmpdir=" + dir;
            default -> word;
          });
    }
    assertThat(command).contains("-XX:+DisableAttachMechanism");
    int port = LoopbackPorts.freePort();
    command.addAll(
        List.of("run", "--pid", Long.toString(app.pid()), "--listen", "127.0.0.1:" + port));
    Process daemon =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("daemon.log").toFile())
            .start();
    try {
      DaemonHttp http = new DaemonHttp(port);
      await()
          .atMost(READY)
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(
                          http.scrape()
                              .value(
                                  "jvm_sentinel_target_up", Map.of("target", "pid-" + app.pid())))
                      .contains(1.0));
      assertThatThrownBy(() -> VirtualMachine.attach(Long.toString(daemon.pid())).detach())
          .isInstanceOfAny(AttachNotSupportedException.class, java.io.IOException.class);
      assertThat(daemon.isAlive()).isTrue();
    } finally {
      daemon.destroy();
      daemon.waitFor();
    }
  }

  private LabProcess lab(LabSpec spec) throws Exception {
    LabProcess lab = spec.startReady(READY);
    labs.add(lab);
    return lab;
  }

  private ForkedDaemon startDaemon(Map<String, String> targets) throws Exception {
    int port = LoopbackPorts.freePort();
    StringBuilder yaml =
        new StringBuilder(Daemons.connectionYaml().replace("127.0.0.1:0", "127.0.0.1:" + port));
    yaml.append("targets:\n");
    targets.forEach(
        (name, hostPort) ->
            yaml.append(
                "  - {name: %s, jmx: \"%s\", pollInterval: 1s}\n".formatted(name, hostPort)));
    return ForkedDaemon.start(dir, yaml.toString(), port);
  }

  private static double up(DaemonHttp http, String target) {
    return http.scrape().value("jvm_sentinel_target_up", Map.of("target", target)).orElse(-1.0);
  }

  private static double polls(DaemonHttp http) {
    return polls(http, Map.of("target", "healthy"));
  }

  private static double polls(DaemonHttp http, Map<String, String> target) {
    return http.scrape().value("jvm_sentinel_poll_duration_seconds_count", target).orElse(0.0);
  }
}
