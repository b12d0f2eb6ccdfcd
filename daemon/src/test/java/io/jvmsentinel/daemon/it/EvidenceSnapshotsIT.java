package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.WebhookReceiver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 28: an alert's JFR snapshot is never an empty file, and never named before it is whole. */
class EvidenceSnapshotsIT {
  @TempDir Path dir;
  private WebhookReceiver receiver;

  @BeforeEach
  void webhookReceiver() throws Exception {
    receiver = WebhookReceiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.close();
  }

  /** A lab starting threads from {@code RequestDispatcher} at {@code rate}/s from 5 s on. */
  private static LabProcess storm(int jdk, int rate, String... jvmArgs) throws Exception {
    return LabSpec.builder("thread-per-request")
        .javaHome(Jdks.jdk(jdk))
        .jvmArgs(jvmArgs)
        .rate(rate)
        .delay(Duration.ofSeconds(5))
        .build()
        .startReady(Duration.ofSeconds(30));
  }

  /** A daemon watching {@code lab}, alerts to the webhook, snapshots to {@code evidence}. */
  private SentinelDaemon watching(LabProcess lab, Path evidence) throws Exception {
    return Daemons.start(
        dir,
        Daemons.webhookAndSnapshots(receiver.url(), evidence.toString())
            + Daemons.target("lab", lab.jmxHostPort(), "2s"));
  }

  /**
   * The recorded empty-dump case: the stream closes (here the daemon stops) while the snapshot of a
   * just-fired alert is written. The JDK's dump then returns normally with nothing written, and the
   * alert had already named the file.
   */
  @Test
  void aSnapshotCutShortByTheStreamClosingIsNeitherLeftEmptyNorNamed() throws Exception {
    Path evidence = dir.resolve("evidence");
    JsonNode firing;
    try (LabProcess lab = storm(17, 100);
        SentinelDaemon daemon = watching(lab, evidence)) {
      await().atMost(Duration.ofSeconds(40)).until(() -> !receiver.received().isEmpty());
      firing = receiver.received().get(0);
      assertThat(firing.get("rule").asText()).isEqualTo("ThreadStorm");
      assertThat(daemon.detection().active()).isNotEmpty();
      // The daemon stops at once, with the snapshot still being written.
    }
    List<Path> files = jfrFiles(evidence);
    for (Path file : files) {
      assertThat(Files.size(file)).as("size of " + file).isPositive();
      assertThat(eventCount(file)).as("events in " + file).isPositive();
    }
    // A snapshot is named only once checked whole: the page that goes out at once says so.
    assertThat(firing.get("snapshot").isNull()).isTrue();
    assertThat(firing.get("snapshotUnavailable").asText()).startsWith("being written");
  }

  /**
   * Trust no target: a target running its own recording with default settings puts its environment,
   * system properties and its own events into the chunks the daemon reads; the snapshot holds only
   * the daemon's events.
   */
  @Test
  void aTargetsOwnRecordingStaysOutOfTheSnapshot() throws Exception {
    Path evidence = dir.resolve("evidence");
    String secret = "lab-secret-" + System.nanoTime();
    try (LabProcess lab = storm(17, 100, "-XX:StartFlightRecording", "-Dlab.token=" + secret);
        SentinelDaemon daemon = watching(lab, evidence)) {
      JsonNode named =
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> snapshotNamed(receiver.received()), n -> n != null);
      assertThat(named.get("rule").asText()).isEqualTo("ThreadStorm");
      Path file = Path.of(named.get("snapshot").asText());

      Set<String> daemonEvents = daemonEventNames(daemon);
      Map<String, Long> types = eventTypes(file);
      assertThat(types.keySet())
          .as("event types in " + file)
          .isSubsetOf(daemonEvents)
          .contains("jdk.ThreadStart")
          .doesNotContain("jdk.InitialSystemProperty", "jdk.InitialEnvironmentVariable");
      String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      assertThat(bytes).as("the target's system property").doesNotContain(secret);
      assertThat(bytes).as("the target's environment").doesNotContain(System.getenv("PATH"));
      assertThat(
              daemon
                  .registry()
                  .get("jvm.sentinel.jfr.evidence.snapshots")
                  .tags("target", "lab", "outcome", "written")
                  .counter()
                  .count())
          .as("jvm_sentinel_jfr_evidence_snapshots_total{outcome=written}")
          .isGreaterThanOrEqualTo(1);
      System.out.printf("own recording: snapshot %d bytes, %s%n", Files.size(file), types);
    }
  }

  /**
   * Issue 25: a disk budget with no room for a dump (64 MB, 90% of it for feeds: 6.4 MB for
   * snapshots, while one dump may take twice a target's 32 MB share) skips the snapshot before any
   * read, counts it as no_space, and the alert still goes out saying why it has none.
   */
  @Test
  void aSnapshotTheDiskBudgetCannotHoldIsSkippedAndTheAlertStillGoesOut() throws Exception {
    Path evidence = dir.resolve("evidence");
    try (LabProcess lab = storm(17, 100);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                Daemons.webhookAndSnapshots(receiver.url(), evidence.toString())
                    + "storage:\n  maxDiskMb: 64\n  streamsPercent: 90\n"
                    + Daemons.target("lab", lab.jmxHostPort(), "2s"))) {
      await().atMost(Duration.ofSeconds(40)).until(() -> !receiver.received().isEmpty());
      JsonNode firing = receiver.received().get(0);
      assertThat(firing.get("rule").asText()).isEqualTo("ThreadStorm");
      assertThat(firing.get("snapshot").isNull()).isTrue();
      assertThat(firing.get("snapshotUnavailable").asText())
          .startsWith("not written: no room in the disk budget (67108864 bytes needed")
          .endsWith("storage.maxDiskMb)");
      assertThat(
              daemon
                  .registry()
                  .get("jvm.sentinel.jfr.evidence.snapshots")
                  .tags("target", "lab", "outcome", "no_space")
                  .counter()
                  .count())
          .as("jvm_sentinel_jfr_evidence_snapshots_total{outcome=no_space}")
          .isEqualTo(1);
      assertThat(jfrFiles(evidence)).isEmpty();
    }
  }

  /** A target the daemon has no JFR of: the alert says there is no snapshot and why. */
  @Test
  void aJmxOnlyTargetsAlertSaysWhyItHasNoSnapshot() throws Exception {
    Path evidence = dir.resolve("evidence");
    // JDK 11 without the jdk.management.jfr module: no FlightRecorder MBean.
    try (LabProcess lab =
            storm(
                11,
                150,
                "--limit-modules",
                "java.se,jdk.management.agent,jdk.management,jdk.unsupported");
        SentinelDaemon daemon = watching(lab, evidence)) {
      await().atMost(Duration.ofSeconds(40)).until(() -> !receiver.received().isEmpty());
      JsonNode firing = receiver.received().get(0);
      assertThat(firing.get("snapshot").isNull()).isTrue();
      assertThat(firing.get("snapshotUnavailable").asText())
          .isEqualTo(
              "the daemon has no JFR recording of the target: the target has no FlightRecorder"
                  + " MBean (a JDK 8 before 8u262, or a JVM without JFR), so only JMX metrics are"
                  + " collected");
      assertThat(daemon.detection().active().get(0).snapshotUnavailable())
          .isEqualTo(firing.get("snapshotUnavailable").asText());
      assertThat(jfrFiles(evidence)).isEmpty();
    }
  }

  /** The first notification that names a snapshot, or null. */
  static JsonNode snapshotNamed(List<JsonNode> notifications) {
    return notifications.stream().filter(n -> n.hasNonNull("snapshot")).findFirst().orElse(null);
  }

  /** The event types the daemon records on its target (its handlers' and evidence-only ones). */
  private static Set<String> daemonEventNames(SentinelDaemon daemon) {
    Set<String> names = new java.util.HashSet<>(JfrStreamSession.EVIDENCE_ONLY_EVENTS);
    daemon.targets().get(0).jfr().all().forEach(h -> names.add(h.eventName()));
    return names;
  }

  static Map<String, Long> eventTypes(Path file) throws Exception {
    Map<String, Long> types = new TreeMap<>();
    try (RecordingFile recording = new RecordingFile(file)) {
      while (recording.hasMoreEvents()) {
        types.merge(recording.readEvent().getEventType().getName(), 1L, Long::sum);
      }
    }
    return types;
  }

  static List<Path> jfrFiles(Path directory) throws Exception {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(directory)) {
      return list.filter(f -> f.toString().endsWith(".jfr")).toList();
    }
  }

  private static long eventCount(Path file) throws Exception {
    long count = 0;
    try (RecordingFile recording = new RecordingFile(file)) {
      while (recording.hasMoreEvents()) {
        recording.readEvent();
        count++;
      }
    }
    return count;
  }
}
