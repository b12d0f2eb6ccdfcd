package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordingFile;
import jdk.management.jfr.RecordingInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream's lifecycle against this JVM as its target (the platform MBean server). */
class JfrStreamSessionTest {
  private static final Duration READY = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final InProcessTarget target = new InProcessTarget();
  private final RecordingOwner owner = new RecordingOwner("host-a", "0123456789ab");
  private final String ownName = owner.recordingName("self");
  private final CountingHandler threadStarts = new CountingHandler("jdk.ThreadStart");
  private JfrStreamSession session;

  @AfterEach
  void close() throws Exception {
    if (session != null) {
      session.close();
    }
    target.close();
  }

  private JfrStreamSession session(Duration localRetention) {
    return session(localRetention, JfrConfig.DEFAULT);
  }

  private JfrStreamSession session(Duration localRetention, JfrConfig config) {
    session =
        new JfrStreamSession(
            "self",
            List.of(threadStarts),
            config,
            () -> null,
            new SimpleMeterRegistry(),
            Tags.of("target", "self"),
            new StreamDirectories(tmp),
            owner,
            localRetention);
    return session;
  }

  /** Starts threads until the handler has counted one. */
  private void awaitThreadStartsCounted() {
    await()
        .atMost(READY)
        .untilAsserted(
            () -> {
              Thread started = new Thread(() -> {}, "started-by-the-test");
              started.start();
              started.join();
              assertThat(threadStarts.events.get()).isPositive();
            });
  }

  private void awaitStreaming(boolean streaming) {
    await().atMost(READY).until(() -> session.streaming() == streaming);
  }

  @Test
  void aRecordingSomeoneElseStartsWhileTheDaemonConnectsIsNeverRenamedOrClosed() {
    long stoppedBefore = target.startForeign("JMC before");
    target.recorder.stopRecording(stoppedBefore);
    ForeignRecordingRace race = new ForeignRecordingRace(target);
    session(Duration.ZERO);

    session.connected(null, race);
    awaitStreaming(true);

    List<RecordingInfo> own = target.named(ownName);
    assertThat(own).hasSize(1);
    assertThat(own.get(0).getState()).isEqualTo("RUNNING");
    assertThat(race.foreign()).hasSize(2).doesNotContain(own.get(0).getId());
    assertForeignUntouched(race.foreign(), "RUNNING");

    // Reconnecting sweeps leftovers and opens a new stream, racing again; stopping closes it.
    session.disconnected();
    awaitStreaming(false);
    session.connected(null, race);
    awaitStreaming(true);
    session.close();

    assertThat(race.foreign()).hasSize(4);
    assertForeignUntouched(race.foreign(), "RUNNING");
    assertForeignUntouched(List.of(stoppedBefore), "STOPPED");
    assertThat(target.named(ownName)).as("the daemon's own recordings, closed").isEmpty();
  }

  private void assertForeignUntouched(List<Long> ids, String state) {
    for (long id : ids) {
      RecordingInfo foreign = target.recording(id).orElseThrow();
      assertThat(foreign.getName()).doesNotStartWith("jvm-sentinel");
      assertThat(foreign.getState()).isEqualTo(state);
      assertThat(foreign.getMaxAge()).isZero();
      assertThat(foreign.getDuration()).isZero();
    }
  }

  @Test
  void eventsFlowAndAnEvidenceDumpHoldsThem() throws Exception {
    session(Duration.ofMinutes(1));
    session.connected(null, target.connection);
    awaitStreaming(true);

    awaitThreadStartsCounted();
    Path file = tmp.resolve("evidence.jfr");
    Path written = session.dump(file).orElseThrow().get(60, TimeUnit.SECONDS);

    assertThat(written).isEqualTo(file);
    assertThat(RecordingFile.readAllEvents(file))
        .extracting(event -> event.getEventType().getName())
        .contains("jdk.ThreadStart");
  }

  @Test
  void withTheChunkFeedEventsFlowTheStateSaysSoAndADumpHoldsThem() throws Exception {
    JfrConfig chunks = JfrConfig.DEFAULT.withFeed(JfrConfig.Feed.CHUNKS, Duration.ofSeconds(1));
    session(Duration.ofMinutes(1), chunks);
    session.connected(null, target.connection);
    awaitStreaming(true);
    assertThat(session.state())
        .isEqualTo("reading the recording in chunks every 1s (jfr.feed: chunks)");

    awaitThreadStartsCounted();
    Path file = tmp.resolve("evidence.jfr");
    session.dump(file).orElseThrow().get(60, TimeUnit.SECONDS);
    assertThat(RecordingFile.readAllEvents(file))
        .extracting(event -> event.getEventType().getName())
        .contains("jdk.ThreadStart");

    long id = target.named(ownName).get(0).getId();
    session.disconnected();
    awaitStreaming(false);
    await().atMost(READY).until(() -> target.recording(id).isEmpty());
  }

  @Test
  void disconnectingClosesTheRecordingAndADumpThenFailsWithAReason() throws Exception {
    session(Duration.ZERO);
    session.connected(null, target.connection);
    awaitStreaming(true);
    long id = target.named(ownName).get(0).getId();

    session.disconnected();
    awaitStreaming(false);

    await().atMost(READY).until(() -> target.recording(id).isEmpty());
    Path file = tmp.resolve("none.jfr");
    assertThat(session.dump(file).orElseThrow())
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("no JFR stream is running for target self");
    assertThat(Files.exists(file)).isFalse();
  }
}
