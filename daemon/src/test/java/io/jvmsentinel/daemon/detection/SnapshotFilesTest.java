package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two daemons sharing a snapshot directory never write to, or publish over, each other's file. */
class SnapshotFilesTest {
  private static final String BASE = "orders-ThreadStorm-20261125T230000Z";

  @TempDir Path dir;

  @Test
  void twoSnapshotsOfTheSameNameReserveTwoParts() throws Exception {
    Path first = SnapshotFiles.reservePart(dir, BASE);
    Path second = SnapshotFiles.reservePart(dir, BASE);

    assertThat(first.getFileName()).hasToString(BASE + ".jfr.part");
    assertThat(second.getFileName()).hasToString(BASE + "-2.jfr.part");
    assertThat(first).exists();
    assertThat(second).exists();
  }

  @Test
  void aKeyTheTargetChoseGivesAShortNameInThisDirectory() throws Exception {
    Instant since = Instant.parse("2026-11-25T23:00:00Z");
    String peer = "../../etc/" + "x".repeat(1_000) + ":443";
    ActiveAlert alert =
        new ActiveAlert(
            "TlsHandshakeStorm",
            "orders",
            peer,
            Severity.WARNING,
            ActiveAlert.State.FIRING,
            since,
            since,
            new Finding(peer, "summary", "explanation", "action", Map.of()),
            null,
            null);

    String base = EvidenceSnapshots.baseName(alert);
    Path part = SnapshotFiles.reservePart(dir, base);

    assertThat(base)
        .startsWith("orders-TlsHandshakeStorm-.._.._etc_xxx")
        .endsWith("-20261125T230000Z")
        .hasSizeLessThan(EvidenceSnapshots.NAME_MAX + 30);
    assertThat(part.getParent()).isEqualTo(dir);
    assertThat(SnapshotFiles.publish(part).getFileName().toString()).hasSizeLessThan(255);
  }

  @Test
  void aNamePublishedBeforeIsNotReservedAgain() throws Exception {
    Files.writeString(dir.resolve(BASE + ".jfr"), "another daemon's snapshot");

    assertThat(SnapshotFiles.reservePart(dir, BASE).getFileName())
        .hasToString(BASE + "-2.jfr.part");
  }

  @Test
  void publishingNeverOverwritesAFileTakenMeanwhile() throws Exception {
    Path part = SnapshotFiles.reservePart(dir, BASE);
    Files.writeString(part, "this daemon's snapshot");
    Files.writeString(dir.resolve(BASE + ".jfr"), "another daemon's snapshot");

    Path published = SnapshotFiles.publish(part);

    assertThat(published.getFileName()).hasToString(BASE + "-2.jfr");
    assertThat(published).hasContent("this daemon's snapshot");
    assertThat(dir.resolve(BASE + ".jfr")).hasContent("another daemon's snapshot");
    assertThat(part).doesNotExist();
  }

  @Test
  void aCheckedPartIsPublishedUnderItsOwnName() throws Exception {
    Path part = SnapshotFiles.reservePart(dir, BASE);

    assertThat(SnapshotFiles.publish(part)).isEqualTo(dir.resolve(BASE + ".jfr"));
  }
}
