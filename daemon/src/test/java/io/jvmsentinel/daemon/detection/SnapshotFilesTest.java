package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
