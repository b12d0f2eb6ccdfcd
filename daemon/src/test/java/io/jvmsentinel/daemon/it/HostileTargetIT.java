package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.DaemonLogsOnFailure;
import io.jvmsentinel.daemon.testing.ForkedDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.SentinelJar;
import io.jvmsentinel.daemon.testing.WebhookReceiver;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets that attack the daemon (issue 25): one packaged daemon watches a healthy lab JVM beside
 * hostile ones. The daemon refuses each attack with one clear log line, stays up, and keeps
 * watching the healthy target.
 */
@ExtendWith(DaemonLogsOnFailure.class)
class HostileTargetIT {
  private static final Duration READY = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<LabProcess> labs = new ArrayList<>();

  @AfterEach
  void stopLabs() {
    labs.forEach(LabProcess::stop);
  }

  @Test
  void jmxRepliesWithUnexpectedClassesOversizedArraysOrNoneAtAllAreRefused() throws Exception {
    LabProcess healthy = lab(LabSpec.builder("healthy").javaHome(Jdks.jdk17()).build());
    LabProcess gadget = lab(LabSpec.builder("hostile-reply-class").javaHome(Jdks.jdk17()).build());
    LabProcess array = lab(LabSpec.builder("hostile-reply-array").javaHome(Jdks.jdk11()).build());
    // Its JMX server answers, but a read of Runtime or Threading never returns.
    LabProcess hang = lab(LabSpec.builder("hostile-reply-hang").javaHome(Jdks.jdk17()).build());
    gadget.awaitOnset("hostile-reply-class", READY);
    array.awaitOnset("hostile-reply-array", READY);
    hang.awaitOnset("hostile-reply-hang", READY);

    try (ForkedDaemon daemon =
        startDaemon(
            Map.of(
                "healthy", healthy.jmxHostPort(),
                "gadget", gadget.jmxHostPort(),
                "array", array.jmxHostPort(),
                "hang", hang.jmxHostPort()))) {
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
                // The call timeout (2 s) ends a read the target never answers.
                assertThat(log.lines())
                    .anyMatch(l -> l.contains("target hang:") && l.contains("Read timed out"));
                assertThat(up(http, "healthy")).isEqualTo(1.0);
              });
      double pollsBefore = polls(http);
      // The healthy target is still read: its polls go on while the hostile ones fail.
      await().atMost(READY).untilAsserted(() -> assertThat(polls(http)).isGreaterThan(pollsBefore));
      assertThat(up(http, "gadget")).isEqualTo(0.0);
      assertThat(up(http, "array")).isEqualTo(0.0);
      assertThat(up(http, "hang")).isEqualTo(0.0);
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
   * A thread storm from a class whose name (and whose threads' names) carry DogStatsD separators, a
   * Slack mention, markup, a line break and 4 KB, beside 2,000 made-up memory pools so named: every
   * output holds them cut, cleaned and inert, and the storm's snapshot is kept; 48 more made-up
   * pools with short plain names do not crowd out the JVM's own.
   */
  @Test
  void namesTheTargetChoseStayCutCleanAndInertInEveryOutput() throws Exception {
    // G1 whatever the machine's size, so the real pools the test names are the ones the JVM has.
    LabProcess hostile =
        lab(
            LabSpec.builder("hostile-frames")
                .javaHome(Jdks.jdk17())
                .jvmArgs("-XX:+UseG1GC")
                .build());
    hostile.awaitOnset("hostile-frames", READY);
    int port = LoopbackPorts.freePort();
    Path evidence = dir.resolve("evidence");
    try (WebhookReceiver webhook = WebhookReceiver.start();
        WebhookReceiver slack = WebhookReceiver.start();
        DatagramSocket agent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      Path slackUrl = Files.writeString(dir.resolve("slack-url"), slack.url());
      String yaml =
          Daemons.connectionYaml().replace("127.0.0.1:0", "127.0.0.1:" + port)
              + Daemons.target("hostile", hostile.jmxHostPort(), "1s")
              + """
              alerts:
                sinks:
                  webhook: {url: "%s"}
                  slack: {webhookUrlFile: "%s"}
              detection:
                snapshots: {directory: "%s"}
              datadog:
                enabled: true
                address: udp://127.0.0.1:%d
                step: 1s
              """
                  .formatted(webhook.url(), slackUrl, evidence, agent.getLocalPort());
      try (ForkedDaemon daemon = ForkedDaemon.start(dir, yaml, port)) {
        DaemonHttp http = daemon.http();
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  assertThat(slack.received()).isNotEmpty();
                  assertThat(daemon.log()).contains("saved JFR evidence");
                });

        // Prometheus: 32 pools, every real one among them although 48 made-up ones have shorter
        // names (and 12 buffer pools beside the real three), every label value at most 256
        // characters.
        String exposition = http.get("/metrics").body();
        assertThat(exposition.length()).isLessThan(500_000);
        PrometheusText scrape = PrometheusText.parse(exposition);
        assertThat(scrape.series("jvm_memory_used_bytes")).hasSize(32);
        List<String> pools =
            scrape.series("jvm_memory_used_bytes").stream()
                .map(sample -> sample.labels().get("id"))
                .toList();
        // The JVM's 8 (G1's three, Metaspace, the class space, the three code heaps); the
        // made-up ones take the other 24.
        assertThat(pools).filteredOn(id -> !id.matches("p\\d+")).hasSize(8);
        for (String real :
            List.of("G1 Eden Space", "G1 Old Gen", "CodeHeap 'non-profiled nmethods'")) {
          assertThat(scrape.value("jvm_memory_used_bytes", Map.of("id", real)))
              .as(real)
              // Read (0 is a real reading: an empty eden after a collection, an old gen before
              // anything was promoted); a pool not read would have no series at all.
              .hasValueSatisfying(used -> assertThat(used).isNotNaN().isNotNegative());
        }
        assertThat(scrape.series("jvm_buffer_memory_used_bytes"))
            .hasSize(8)
            .extracting(sample -> sample.labels().get("id"))
            .contains("direct", "mapped", "mapped - 'non-volatile memory'");
        assertThat(scrape.samples())
            .allSatisfy(
                sample ->
                    assertThat(sample.labels().values())
                        .allSatisfy(v -> assertThat(v).hasSizeLessThanOrEqualTo(256)));
        assertThat(
                scrape.series("jvm_threads_started_by_site_threads_total").stream()
                    .map(sample -> sample.labels().get("site")))
            .anySatisfy(site -> assertThat(site).startsWith("hostile-framesEvil<!channel>|#tag"))
            .allSatisfy(site -> assertThat(site).doesNotContain("\n", "\\n", "\u001b", "\u202E"));

        // Slack: wherever Slack reads mrkdwn (the fallback text, the evidence, the context) the
        // mention and the markup arrive escaped and the mrkdwn markers inert (look-alikes, or in
        // code spans that stay closed); the rest is plain text, which Slack does not parse.
        JsonNode message = slack.received().get(0);
        StringBuilder mrkdwn = new StringBuilder();
        List<JsonNode> plain = new ArrayList<>();
        message
            .get("blocks")
            .forEach(
                block -> {
                  List<JsonNode> objects = new ArrayList<>();
                  block.path("elements").forEach(objects::add);
                  if (block.has("text")) {
                    objects.add(block.get("text"));
                  }
                  for (JsonNode object : objects) {
                    if (object.path("type").asText().equals("mrkdwn")) {
                      String text = object.get("text").asText();
                      assertThat(text.chars().filter(c -> c == '`').count() % 2).isZero();
                      mrkdwn.append(text.replaceAll("`[^`\\n]*`", ""));
                    } else {
                      plain.add(object);
                    }
                  }
                });
        assertThat(mrkdwn.toString()).doesNotContain("<!channel>", "<img", "*bold*", "Evil");
        assertThat(plain)
            .isNotEmpty()
            .allSatisfy(
                object -> {
                  assertThat(object.get("type").asText()).isEqualTo("plain_text");
                  assertThat(object.get("emoji").asBoolean(true)).isFalse();
                });
        assertThat(message.get("text").asText())
            .contains("hostile-framesEvil&lt;!channel&gt;|#tag:x,y\"∗bold∗ˋ＿&lt;img")
            .doesNotContain("<!channel>", "<img", "*bold*", "`");

        // DogStatsD: every datagram reads strictly (lengths, fields, one tag field), no tag made
        // up.
        List<DogStatsdLines.Line> lines = new ArrayList<>();
        agent.setSoTimeout(2000);
        byte[] buffer = new byte[65536];
        for (int i = 0; i < 200; i++) {
          DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
          agent.receive(packet);
          lines.addAll(DogStatsdLines.parse(Arrays.copyOf(packet.getData(), packet.getLength())));
        }
        List<String> tags =
            lines.stream()
                .filter(DogStatsdLines.Metric.class::isInstance)
                .flatMap(line -> ((DogStatsdLines.Metric) line).tags().stream())
                .toList();
        assertThat(tags)
            .anySatisfy(tag -> assertThat(tag).startsWith("site:hostile-framesEvil<!channel>_#tag"))
            .allSatisfy(
                tag ->
                    assertThat(tag)
                        .hasSizeLessThanOrEqualTo(200)
                        .matches("[a-z_]+:.*")
                        .doesNotStartWith("tag:x")
                        .doesNotStartWith("y\""));

        // Logs: one line per message, the forged line never at the start of one.
        String log = daemon.log();
        assertThat(log.lines()).noneMatch(line -> line.startsWith("2026-01-01T00:00:00,000Z"));
        assertThat(log).doesNotContain("\u001b", "\u202E", "not kept");
        assertThat(daemon.isAlive()).isTrue();
        try (var files = Files.list(evidence)) {
          assertThat(files.map(f -> f.getFileName().toString()))
              .anySatisfy(name -> assertThat(name).startsWith("hostile-ThreadStorm-"));
        }
      }
    }
  }

  /**
   * Events the target commits under JDK event names with fields missing or retyped (a thread as
   * text, a peer host as a number): each is read leniently, none fails its handler, and the stream
   * goes on. (What they claim still counts as the target's own signal: a target can forge its own
   * alerts, as it can cause the conditions.)
   */
  @Test
  void forgedJdkEventsWithMissingOrRetypedFieldsAreReadLeniently() throws Exception {
    LabProcess forged = lab(LabSpec.builder("hostile-events").javaHome(Jdks.jdk17()).build());
    forged.awaitOnset("hostile-events", READY);
    try (ForkedDaemon daemon = startDaemon(Map.of("forged", forged.jmxHostPort()))) {
      DaemonHttp http = daemon.http();
      Map<String, String> starts = Map.of("target", "forged", "event", "jdk.ThreadStart");
      await()
          .atMost(READY)
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(http.scrape().value("jvm_sentinel_jfr_events_total", starts))
                      .hasValueSatisfying(count -> assertThat(count).isGreaterThan(1_000)));
      PrometheusText scrape = http.scrape();
      assertThat(scrape.sum("jvm_sentinel_jfr_handler_errors_total", Map.of("target", "forged")))
          .isZero();
      assertThat(up(http, "forged")).isEqualTo(1.0);
      assertThat(daemon.isAlive()).isTrue();
      assertThat(daemon.log()).doesNotContain("failed (counted in");
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
