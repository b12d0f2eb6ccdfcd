package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import jdk.management.jfr.RecordingInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's recording on the target, against this JVM's own FlightRecorder MBean. */
class TargetRecordingTest {
  private static final long MAX_SIZE = 16L * 1024 * 1024;
  private static final TargetRecording.Lease LEASE =
      new TargetRecording.Lease(Duration.ofMinutes(5), Duration.ofMinutes(1));

  @TempDir Path tmp;
  private final InProcessTarget target = new InProcessTarget();
  private final RecordingOwner owner = new RecordingOwner("host-a", "0123456789ab");
  private TargetRecording recording;

  @AfterEach
  void close() throws Exception {
    if (recording != null) {
      recording.close();
    }
    target.close();
  }

  private TargetRecording open(
      javax.management.MBeanServerConnection connection, TargetRecording.Lease lease)
      throws Exception {
    recording =
        TargetRecording.openStream(
            connection,
            tmp,
            "orders",
            owner.recordingName("orders"),
            Duration.ofMinutes(3),
            MAX_SIZE,
            lease);
    return recording;
  }

  @Test
  void itsRecordingIsNamedBoundedAndLeasedBeforeItStarts() throws Exception {
    open(target.connection, LEASE);

    RecordingInfo info = target.recording(recording.id()).orElseThrow();
    assertThat(info.getName()).isEqualTo("jvm-sentinel@host-a/0123456789ab/orders");
    assertThat(info.getState()).isEqualTo("NEW");
    assertThat(info.getMaxAge()).as("seconds").isEqualTo(180);
    assertThat(info.getMaxSize()).isEqualTo(MAX_SIZE);
    assertThat(info.getDuration()).as("lease, seconds").isEqualTo(300);

    recording.close();
    assertThat(target.recording(recording.id())).as("closed with its stream").isEmpty();
  }

  @Test
  void recordingsOthersStartAroundItsOwnAreNeitherRenamedNorBounded() throws Exception {
    ForeignRecordingRace race = new ForeignRecordingRace(target);

    open(race, LEASE);

    assertThat(race.foreign()).hasSize(2).doesNotContain(recording.id());
    for (long id : race.foreign()) {
      RecordingInfo foreign = target.recording(id).orElseThrow();
      assertThat(foreign.getName()).doesNotStartWith("jvm-sentinel");
      assertThat(foreign.getMaxSize()).isZero();
      assertThat(foreign.getDuration()).isZero();
    }
    assertThat(target.named(owner.recordingName("orders")))
        .extracting(RecordingInfo::getId)
        .containsExactly(recording.id());
  }

  @Test
  void theLeaseStopsARecordingNobodyRenewsAndARenewalPushesItsEndOut() throws Exception {
    open(target.connection, new TargetRecording.Lease(Duration.ofSeconds(1), Duration.ZERO));
    recording.feed().start();

    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> target.recording(recording.id()).orElseThrow().getState().equals("STOPPED"));

    TargetRecording stopped = recording;
    open(target.connection, LEASE);
    recording.renewLeaseIfDue(System.nanoTime() + Duration.ofMinutes(2).toNanos());
    assertThat(target.recording(recording.id()).orElseThrow().getDuration())
        .as("seconds: two minutes run plus the five-minute lease")
        .isBetween(420L, 425L);
    stopped.close();
  }

  @Test
  void leftoversAreOnlyStoppedJvmSentinelRecordingsAndItsOwnEarlierOne() throws Exception {
    long stoppedOther = target.startForeign("jvm-sentinel@host-b/ffffffffffff/orders");
    target.recorder.stopRecording(stoppedOther);
    long runningOther = target.startForeign("jvm-sentinel@host-a/ffffffffffff/orders");
    long ownEarlier = target.startForeign(owner.recordingName("orders"));
    long stoppedForeign = target.startForeign("JMC");
    target.recorder.stopRecording(stoppedForeign);
    long oldStyle = target.startForeign("jvm-sentinel@host-a");

    var closed = TargetRecording.closeLeftovers(target.connection, owner, "orders", Set.of());

    assertThat(closed)
        .extracting(TargetFlightRecorder.Recording::id)
        .containsExactlyInAnyOrder(stoppedOther, ownEarlier);
    assertThat(target.recording(stoppedOther)).isEmpty();
    assertThat(target.recording(ownEarlier)).isEmpty();
    assertThat(target.recording(runningOther)).isPresent();
    assertThat(target.recording(stoppedForeign)).isPresent();
    assertThat(target.recording(oldStyle)).isPresent();
  }
}
