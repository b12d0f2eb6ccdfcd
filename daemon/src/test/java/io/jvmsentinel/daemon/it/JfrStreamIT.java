package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jmx.ObjectNames;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import io.jvmsentinel.daemon.http.RedactedArguments;
import io.jvmsentinel.daemon.http.StatusRoutes;
import io.jvmsentinel.daemon.jfr.CountingHandler;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.jfr.LocalJfrStorage;
import io.jvmsentinel.daemon.jfr.RecordingOwner;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.PollWatchdog;
import io.jvmsentinel.daemon.target.RemoteJmxConnector;
import io.jvmsentinel.daemon.target.RmiTimeouts;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.JfrConfigs;
import io.jvmsentinel.daemon.testing.JmxClient;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stream layer against real targets of each JDK: events flow where remote streaming exists,
 * JMX-only targets say why not, the target-side recording is bounded and named, a stream left
 * behind is closed, and a restarted target gets a new stream.
 */
class JfrStreamIT {
  private static final ObjectName RECORDER =
      ObjectNames.parse("jdk.management.jfr:type=FlightRecorder");
  private static final RecordingOwner OWNER = new RecordingOwner("test", "it");
  private static final String RECORDING = "jvm-sentinel@test/it/lab";
  private static final Duration READY = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CountingHandler threadStarts = new CountingHandler("jdk.ThreadStart");
  private final CountingHandler absentEvent = new CountingHandler("jdk.NoSuchEventInAnyJdk");
  private TargetSession session;
  private JfrStreamSession stream;

  @AfterEach
  void closeSessions() {
    if (stream != null) {
      stream.close();
    }
    if (session != null) {
      session.close();
    }
  }

  @ParameterizedTest(name = "target JDK {0}")
  @ValueSource(ints = {17, 21, 25})
  void eventsFlowFromTargetsWithRemoteStreamingAndTheTargetRecordingIsBounded(int jdk)
      throws Exception {
    try (LabProcess lab = lab(Jdks.jdk(jdk));
        JmxClient jmx = JmxClient.connect(lab)) {
      watch(lab, JfrConfig.DEFAULT);

      await()
          .atMost(READY)
          .untilAsserted(() -> assertThat(threadStarts.events.get()).isGreaterThan(50));
      assertThat(gauge("jvm.sentinel.jfr.available")).isEqualTo(1);
      assertThat(stream.state()).isEqualTo("streaming");
      assertThat(absentEvent.events.get()).isZero();

      CompositeData ours = recordingNamed(jmx, RECORDING);
      assertThat(ours).as("the daemon's recording on the target, renamed").isNotNull();
      assertThat(ours.get("maxAge")).as("seconds").isEqualTo(300L);
      assertThat(ours.get("maxSize")).isEqualTo(32L * 1024 * 1024);
    }
  }

  /**
   * With remote streaming only ({@code jfr.feed: stream}; by default a JDK 11 target gets the chunk
   * feed, see DetectionIT), a JDK 11 target is watched over JMX only and says why.
   */
  @Test
  void aJdk11TargetIsWatchedOverJmxOnlyAndTheStreamSaysWhy() throws Exception {
    try (LabProcess lab = lab(Jdks.jdk11())) {
      watch(
          lab,
          JfrConfigs.withFeed(
              JfrConfig.DEFAULT, JfrConfig.Feed.STREAM, JfrConfig.DEFAULT.chunkPeriod()));

      await()
          .atMost(READY)
          .untilAsserted(
              () ->
                  assertThat(stream.state())
                      .contains("Java 11")
                      .contains("jfr.feed: stream")
                      .contains("JMX metrics"));
      assertThat(gauge("jvm.sentinel.jfr.available")).isZero();
      assertThat(gauge("jvm.sentinel.target.up")).isEqualTo(1);
      assertThat(threadStarts.events.get()).isZero();

      // Issue 17: /api/v1/targets says which contention signals the JMX-only target lacks, and why.
      WatchedTarget watched = new WatchedTarget(session, JfrHandlers.create(Tags.empty()), stream);
      StatusRoutes routes =
          new StatusRoutes(() -> List.of(watched), name -> false, RedactedArguments.builtIn());
      await().atMost(READY).until(() -> watched.contentionSignals().blockedTime() != null);
      HttpEndpoint.Response response =
          routes
              .targets()
              .get(new HttpEndpoint.Request("GET", "/api/v1/targets", "", "", Map.of()));
      JsonNode signals =
          new ObjectMapper()
              .readTree(response.body())
              .path("targets")
              .get(0)
              .path("contentionSignals");
      assertThat(signals.path("available").toString())
          .contains("blockedThreads", "lockHolder")
          .doesNotContain("blockedSites");
      assertThat(signals.path("missing").path("blockedSites").asText()).contains("Java 11");
      assertThat(signals.path("missing").path("blockedTime").asText())
          .as("the lab runs with thread contention monitoring off")
          .contains("contention monitoring is off");
    }
  }

  @Test
  void aStoppedRecordingOfAGoneDaemonIsClosedOnConnectAndARunningOneOfAnotherDaemonIsNot()
      throws Exception {
    try (LabProcess lab = lab(Jdks.jdk17());
        JmxClient jmx = JmxClient.connect(lab)) {
      // As a daemon killed with -9 leaves it once its lease ran out: stopped.
      long gone = startedRecording(jmx, "jvm-sentinel@test/dead/lab");
      jmx.connection()
          .invoke(RECORDER, "stopRecording", new Object[] {gone}, new String[] {"long"});
      // Another daemon, maybe alive: its recording runs.
      long other = startedRecording(jmx, "jvm-sentinel@test/alive/lab");

      watch(lab, JfrConfig.DEFAULT);

      await().atMost(READY).untilAsserted(() -> assertThat(threadStarts.events.get()).isPositive());
      List<Object> ids = recordings(jmx).stream().map(r -> r.get("id")).toList();
      assertThat(ids).doesNotContain(gone).contains(other);
      assertThat(recordingNamed(jmx, RECORDING)).isNotNull();
    }
  }

  private static long startedRecording(JmxClient jmx, String name) throws Exception {
    long id = (Long) jmx.connection().invoke(RECORDER, "newRecording", null, null);
    jdk.management.jfr.FlightRecorderMXBean proxy =
        javax.management.JMX.newMXBeanProxy(
            jmx.connection(), RECORDER, jdk.management.jfr.FlightRecorderMXBean.class);
    proxy.setRecordingOptions(id, java.util.Map.of("name", name));
    jmx.connection().invoke(RECORDER, "startRecording", new Object[] {id}, new String[] {"long"});
    return id;
  }

  @Test
  void aRestartedTargetGetsANewStreamAndTheLocalChunkDirectoryIsRemoved() throws Exception {
    LabProcess lab = lab(Jdks.jdk17());
    try {
      watch(lab, JfrConfig.DEFAULT);
      await().atMost(READY).untilAsserted(() -> assertThat(threadStarts.events.get()).isPositive());

      lab.kill();
      await()
          .atMost(READY)
          .untilAsserted(() -> assertThat(gauge("jvm.sentinel.jfr.available")).isZero());
      await().atMost(READY).untilAsserted(() -> assertThat(streamDirectories()).isEmpty());
      long before = threadStarts.events.get();

      lab = lab.restart(READY);
      await()
          .atMost(READY)
          .untilAsserted(() -> assertThat(threadStarts.events.get()).isGreaterThan(before + 20));
      assertThat(
              registry
                  .get("jvm.sentinel.jfr.stream.starts")
                  .tag("cause", "connect")
                  .counter()
                  .count())
          .isEqualTo(2);
      assertThat(streamDirectories()).hasSize(1);
    } finally {
      lab.close();
    }
  }

  private LabProcess lab(Path javaHome) throws Exception {
    return LabSpec.builder("thread-per-request")
        .javaHome(javaHome)
        .rate(50)
        .build()
        .startReady(READY);
  }

  private void watch(LabProcess lab, JfrConfig config) {
    RmiTimeouts.install(Duration.ofSeconds(2), Duration.ofSeconds(2));
    Tags tags = Tags.of("target", "lab");
    session =
        new TargetSession(
            "lab",
            new RemoteJmxConnector(
                lab.jmxServiceUrl(),
                Credentials.NONE,
                Duration.ofSeconds(2),
                Duration.ofSeconds(2)),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            new Backoff(Duration.ofMillis(300), Duration.ofSeconds(2), () -> 0.5),
            registry,
            tags,
            Clock.systemUTC(),
            new PollWatchdog());
    stream =
        new JfrStreamSession(
            "lab",
            List.of(threadStarts, absentEvent),
            config,
            () -> session.pollers().identity().identity(),
            registry,
            tags,
            LocalJfrStorage.unbounded(tmp, JfrConfig.DEFAULT),
            OWNER,
            Duration.ZERO,
            Clock.systemUTC(),
            JfrStreamSession.newThread("lab"));
    session.addListener(stream);
    session.start();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }

  private List<Path> streamDirectories() throws Exception {
    Path root = tmp.resolve("jvm-sentinel-jfr");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root, 2)) {
      return files.filter(p -> p.getNameCount() == root.getNameCount() + 2).toList();
    }
  }

  private static CompositeData recordingNamed(JmxClient jmx, String name) throws Exception {
    return recordings(jmx).stream()
        .filter(r -> name.equals(r.get("name")))
        .findFirst()
        .orElse(null);
  }

  private static List<CompositeData> recordings(JmxClient jmx) throws Exception {
    return List.of(
        (CompositeData[])
            jmx.connection()
                .getAttribute(
                    new ObjectName("jdk.management.jfr:type=FlightRecorder"), "Recordings"));
  }
}
