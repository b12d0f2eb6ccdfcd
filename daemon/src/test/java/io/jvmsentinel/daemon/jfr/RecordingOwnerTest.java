package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.jfr.TargetFlightRecorder.Recording;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which recordings on a target a daemon may close: only provably jvm-sentinel's, never live. */
class RecordingOwnerTest {
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  private final RecordingOwner me = new RecordingOwner("host-a", "0123456789ab");

  private static Recording recording(long id, String name, String state) {
    return new Recording(id, name, state, 100);
  }

  @Test
  void itsRecordingNameCarriesHostInstanceAndTarget() {
    assertThat(me.recordingName("orders")).isEqualTo("jvm-sentinel@host-a/0123456789ab/orders");
  }

  @Test
  void twoDaemonsOnOneHostNeverShareAName() {
    RecordingOwner one = RecordingOwner.forThisProcess();
    RecordingOwner two = RecordingOwner.forThisProcess();

    assertThat(one.host()).isEqualTo(two.host());
    assertThat(one.recordingName("t")).isNotEqualTo(two.recordingName("t"));
  }

  @Test
  void itsOwnEarlierRecordingForTheTargetIsClosedButNotTheLiveOne() {
    String mine = me.recordingName("orders");

    assertThat(me.mayClose(recording(3, mine, "RUNNING"), "orders", Set.of(7L), NOW)).isTrue();
    assertThat(me.mayClose(recording(7, mine, "RUNNING"), "orders", Set.of(7L), NOW)).isFalse();
    assertThat(me.mayClose(recording(3, mine, "CLOSED"), "orders", Set.of(7L), NOW)).isFalse();
    String evidence = me.evidenceRecordingName("orders");
    assertThat(me.mayClose(recording(4, evidence, "RUNNING"), "orders", Set.of(7L, 8L), NOW))
        .as("an earlier evidence recording")
        .isTrue();
    assertThat(me.mayClose(recording(8, evidence, "RUNNING"), "orders", Set.of(7L, 8L), NOW))
        .as("the live evidence recording")
        .isFalse();
  }

  @Test
  void aRunningRecordingOfAnotherDaemonOrOfItsOwnOtherTargetIsLeftAlone() {
    assertThat(
            me.mayClose(
                recording(3, "jvm-sentinel@host-a/ffffffffffff/orders", "RUNNING"),
                "orders",
                Set.of(7L),
                NOW))
        .as("another daemon on the same host, alive or not")
        .isFalse();
    assertThat(
            me.mayClose(
                recording(3, me.recordingName("billing"), "RUNNING"), "orders", Set.of(7L), NOW))
        .as("this daemon's stream for another target name on the same JVM")
        .isFalse();
  }

  @Test
  void aStoppedRecordingOfAnyJvmSentinelDaemonIsClosed() {
    assertThat(
            me.mayClose(
                recording(3, "jvm-sentinel@host-b/ffffffffffff/orders", "STOPPED"),
                "orders",
                Set.of(7L),
                NOW))
        .as("its lease ran out: no daemon reads it")
        .isTrue();
  }

  @Test
  void recordingsNamedByAnybodyElseAreNeverClosed() {
    for (String name :
        new String[] {
          "Remote Recording Stream: 2026-11-25T04:00:00Z",
          "JMC",
          "1",
          "Clone of jvm-sentinel@host-a/0123456789ab/orders",
          "jvm-sentinel@host-a",
          "xjvm-sentinel@host-a/0123456789ab/orders"
        }) {
      assertThat(me.mayClose(recording(3, name, "STOPPED"), "orders", Set.of(7L), NOW))
          .as(name)
          .isFalse();
      assertThat(me.mayClose(recording(3, name, "RUNNING"), "orders", Set.of(7L), NOW))
          .as(name)
          .isFalse();
    }
  }

  @Test
  void aReadCopyLeftBehindIsClosedOnceItIsOverAMinuteOldButNeverOneBeingRead() {
    String copy = "jvm-sentinel-read@host-b/ffffffffffff/orders";
    long stopped = NOW.minusSeconds(61).toEpochMilli();
    long justNow = NOW.minusSeconds(2).toEpochMilli();

    assertThat(me.readCopyName("orders")).isEqualTo("jvm-sentinel-read@host-a/0123456789ab/orders");
    assertThat(
            me.mayClose(
                new Recording(3, copy, "STOPPED", 9, 0, stopped), "orders", Set.of(7L), NOW))
        .as("a killed daemon's copy holds the target's chunks: closed")
        .isTrue();
    assertThat(
            me.mayClose(
                new Recording(3, copy, "STOPPED", 9, 0, justNow), "orders", Set.of(7L), NOW))
        .as("a read in progress, of this daemon or another")
        .isFalse();
    assertThat(
            me.mayClose(
                new Recording(3, "jvm-sentinel-read@x", "STOPPED", 9, 0, stopped),
                "orders",
                Set.of(7L),
                NOW))
        .as("not a name a daemon gives")
        .isFalse();
  }

  @Test
  void aSlashInHostOrInstanceIsRejected() {
    assertThatThrownBy(() -> new RecordingOwner("a/b", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RecordingOwner("a", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
