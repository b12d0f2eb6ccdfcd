package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.testing.JfrConfigs;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

  private JfrStreamSession session(Duration evidenceWindow) {
    return session(evidenceWindow, JfrConfig.DEFAULT);
  }

  private JfrStreamSession session(Duration evidenceWindow, JfrConfig config) {
    session =
        new JfrStreamSession(
            "self",
            List.of(threadStarts),
            config,
            () -> null,
            new SimpleMeterRegistry(),
            Tags.of("target", "self"),
            LocalJfrStorage.unbounded(tmp, JfrConfig.DEFAULT),
            owner,
            evidenceWindow,
            Clock.systemUTC(),
            JfrStreamSession.newThread("self"));
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

  /** Starts {@code count} threads named {@code prefix}N and waits until the stream counted them. */
  private void startThreads(String prefix, int count) throws InterruptedException {
    long before = threadStarts.events.get();
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> {}, prefix + i);
      thread.start();
      thread.join();
    }
    await().atMost(READY).until(() -> threadStarts.events.get() >= before + count);
  }

  private static List<String> startedThreads(Path file) throws Exception {
    return RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ThreadStart"))
        .map(e -> e.getThread("thread").getJavaName())
        .toList();
  }

  /**
   * Issue 28: the stream's read removes each chunk from the stream's recording once sent, so a copy
   * of it held only the events since the last chunk rotation. The evidence recording keeps the
   * window across rotations, and the snapshot holds only the daemon's events.
   */
  @Test
  void theEvidenceRecordingKeepsTheWindowAcrossChunkRotationsWithOnlyTheDaemonsEvents()
      throws Exception {
    session(Duration.ofMinutes(1));
    session.connected(null, target.connection);
    awaitStreaming(true);
    Instant from = Instant.now();
    assertThat(session.evidenceUnavailable()).isEmpty();
    startThreads("early-", 3);
    // Another tool's recording starting and stopping ends the target's current chunk.
    long foreign = target.startForeign("JMC");
    target.recorder.stopRecording(foreign);
    startThreads("late-", 3);
    System.gc(); // a collection the daemon records for evidence only

    Path file = tmp.resolve("evidence.jfr");
    RecordedEvidence read =
        session
            .readEvidence(from, Instant.now(), file, DumpAdmission.ANY)
            .orElseThrow()
            .get(60, TimeUnit.SECONDS);

    assertThat(read.file()).isEqualTo(file);
    assertThat(read.source()).isEqualTo("the daemon's evidence recording");
    assertThat(read.recordedFrom()).isBefore(from.plusSeconds(1));
    assertThat(startedThreads(file))
        .as("thread starts before and after the rotation")
        .contains("early-0", "early-1", "early-2", "late-0", "late-1", "late-2");
    // The daemon's event types only: its handler's and the collections it records for evidence.
    assertThat(RecordingFile.readAllEvents(file))
        .extracting(event -> event.getEventType().getName())
        .containsOnly("jdk.ThreadStart", "jdk.GarbageCollection");
    RecordingInfo evidence = target.named(owner.evidenceRecordingName("self")).get(0);
    assertThat(evidence.getState()).isEqualTo("RUNNING");
    assertThat(evidence.getMaxAge()).as("window and margin, seconds").isEqualTo(120);
    assertThat(evidence.getSettings()).as("it records nothing of its own").isEmpty();
    assertThat(tmp.resolve("evidence.jfr.raw")).doesNotExist();
  }

  @Test
  void withTheChunkFeedEventsFlowTheStateSaysSoAndTheEvidenceHoldsThem() throws Exception {
    JfrConfig chunks =
        JfrConfigs.withFeed(JfrConfig.DEFAULT, JfrConfig.Feed.CHUNKS, Duration.ofSeconds(1));
    session(Duration.ofMinutes(1), chunks);
    session.connected(null, target.connection);
    awaitStreaming(true);
    assertThat(session.state())
        .isEqualTo("reading the recording in chunks every 1s (jfr.feed: chunks)");
    Instant from = Instant.now();

    startThreads("chunked-", 3);
    Path file = tmp.resolve("evidence.jfr");
    session
        .readEvidence(from, Instant.now(), file, DumpAdmission.ANY)
        .orElseThrow()
        .get(60, TimeUnit.SECONDS);
    assertThat(startedThreads(file)).contains("chunked-0", "chunked-1", "chunked-2");

    long id = target.named(ownName).get(0).getId();
    session.disconnected();
    awaitStreaming(false);
    await().atMost(READY).until(() -> target.recording(id).isEmpty());
    assertThat(target.named(owner.evidenceRecordingName("self"))).isEmpty();
  }

  /** Issue 25: a read the disk budget has no room for reads nothing from the target. */
  @Test
  void aReadRefusedRoomWhenItsTurnComesWritesNothing() throws Exception {
    session(Duration.ofMinutes(1));
    session.connected(null, target.connection);
    awaitStreaming(true);
    Path file = tmp.resolve("refused.jfr");
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();

    assertThat(
            session
                .readEvidence(
                    Instant.now().minusSeconds(5),
                    Instant.now(),
                    file,
                    () -> {
                      asked.incrementAndGet();
                      throw new DumpAdmission.NoRoom("no room");
                    })
                .orElseThrow())
        .failsWithin(Duration.ofSeconds(60))
        .withThrowableOfType(ExecutionException.class)
        .havingRootCause()
        .isInstanceOf(DumpAdmission.NoRoom.class)
        .withMessage("no room");
    assertThat(asked).hasValue(1);
    assertThat(file).doesNotExist();
    assertThat(tmp.resolve("refused.jfr.raw")).doesNotExist();
  }

  @Test
  void disconnectingClosesBothRecordingsAndAnEvidenceReadThenFailsWithAReason() throws Exception {
    session(Duration.ofMinutes(1));
    session.connected(null, target.connection);
    awaitStreaming(true);
    long id = target.named(ownName).get(0).getId();

    session.disconnected();
    awaitStreaming(false);

    await().atMost(READY).until(() -> target.recording(id).isEmpty());
    assertThat(target.named(owner.evidenceRecordingName("self"))).isEmpty();
    assertThat(session.evidenceUnavailable()).contains("the target is not connected");
    Path file = tmp.resolve("none.jfr");
    assertThat(
            session
                .readEvidence(
                    Instant.now().minusSeconds(60), Instant.now(), file, DumpAdmission.ANY)
                .orElseThrow())
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("the target is not connected");
    assertThat(Files.exists(file)).isFalse();
  }

  @Test
  void withoutSnapshotsThereIsNoEvidenceRecording() {
    session(Duration.ZERO);
    session.connected(null, target.connection);
    awaitStreaming(true);

    assertThat(target.named(owner.evidenceRecordingName("self"))).isEmpty();
  }
}
