package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Room for a snapshot is made before it is written, oldest snapshots first; the finished ones plus
 * the reservations never exceed the cap.
 */
class SnapshotSpaceTest {
  @TempDir Path dir;

  private Path snapshot(String name, int bytes, int minutesAgo) throws Exception {
    Path file = Files.write(dir.resolve(name), new byte[bytes]);
    Files.setLastModifiedTime(
        file, FileTime.from(Instant.parse("2026-11-26T02:00:00Z").minusSeconds(60L * minutesAgo)));
    return file;
  }

  @Test
  void theOldestSnapshotsGoFirstAndOnlyAsManyAsNeeded() throws Exception {
    Path oldest = snapshot("a.jfr", 300, 30);
    Path older = snapshot("b.jfr", 300, 20);
    Path newest = snapshot("c.jfr", 300, 10);
    SnapshotSpace space = new SnapshotSpace(dir, 1000);

    Optional<SnapshotSpace.Reservation> room = space.reserve(350);

    assertThat(room).isPresent();
    assertThat(oldest).doesNotExist();
    assertThat(older).exists();
    assertThat(newest).exists();
    assertThat(space.reservedBytes()).isEqualTo(350);
  }

  @Test
  void whatFitsDeletesNothing() throws Exception {
    Path kept = snapshot("a.jfr", 300, 30);
    SnapshotSpace space = new SnapshotSpace(dir, 1000);
    assertThat(space.reserve(700)).isPresent();
    assertThat(kept).exists();
  }

  @Test
  void snapshotsBeingWrittenHoldTheirRoomUntilTheyFinish() throws Exception {
    SnapshotSpace space = new SnapshotSpace(dir, 1000);
    SnapshotSpace.Reservation first = space.reserve(600).orElseThrow();

    assertThat(space.reserve(600)).as("no room left beside the first").isEmpty();

    first.close();
    first.close(); // Given back once only.
    assertThat(space.reservedBytes()).isZero();
    assertThat(space.reserve(600)).isPresent();
  }

  @Test
  void aSnapshotThatCannotFitDeletesNothing() throws Exception {
    Path kept = snapshot("a.jfr", 300, 30);
    SnapshotSpace space = new SnapshotSpace(dir, 1000);
    space.reserve(800).orElseThrow(); // Deletes a.jfr to make room.
    assertThat(kept).doesNotExist();

    Path newer = snapshot("b.jfr", 100, 5);
    assertThat(space.reserve(300)).isEmpty();
    assertThat(newer).as("deleting it would not have made room").exists();
  }

  @Test
  void onlyFinishedSnapshotsAreDeleted() throws Exception {
    Path part = snapshot("c.jfr.part", 500, 60);
    Path other = snapshot("notes.txt", 500, 60);
    snapshot("a.jfr", 400, 30);
    SnapshotSpace space = new SnapshotSpace(dir, 1000);

    assertThat(space.reserve(700)).isPresent();

    assertThat(part).as("another snapshot being written").exists();
    assertThat(other).exists();
    assertThat(dir.resolve("a.jfr")).doesNotExist();
  }

  @Test
  void aMissingDirectoryIsEmpty() throws Exception {
    SnapshotSpace space = new SnapshotSpace(dir.resolve("not-yet"), 1000);
    assertThat(space.reserve(1000)).isPresent();
  }
}
