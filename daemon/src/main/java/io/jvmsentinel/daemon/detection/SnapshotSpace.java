package io.jvmsentinel.daemon.detection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot directory's part of the disk budget. Room for a snapshot is reserved before it is
 * written, for the most it can take while it is made, and the oldest snapshots are deleted first to
 * make that room: the finished snapshots plus the reservations of those being written never exceed
 * the cap. When even deleting every finished snapshot leaves too little (other snapshots are being
 * written), none is reserved and the snapshot is skipped.
 */
final class SnapshotSpace {
  private static final Logger log = LoggerFactory.getLogger(SnapshotSpace.class);

  private final Path directory;
  private final long capBytes;
  // Guarded by this.
  private long reservedBytes;

  SnapshotSpace(Path directory, long capBytes) {
    this.directory = directory;
    this.capBytes = capBytes;
  }

  /** Room held for one snapshot being written; closing it gives the room back. */
  final class Reservation implements AutoCloseable {
    private final long bytes;
    private boolean released;

    private Reservation(long bytes) {
      this.bytes = bytes;
    }

    @Override
    public void close() {
      synchronized (SnapshotSpace.this) {
        if (!released) {
          released = true;
          reservedBytes -= bytes;
        }
      }
    }
  }

  /**
   * Reserves {@code bytes} for a snapshot about to be written, deleting the oldest snapshots as far
   * as needed; empty when they cannot fit even with every finished snapshot deleted (then none is
   * deleted).
   */
  synchronized Optional<Reservation> reserve(long bytes) throws IOException {
    List<Path> oldestFirst = snapshots();
    long finished = 0;
    for (Path file : oldestFirst) {
      finished += sizeOf(file);
    }
    if (reservedBytes + bytes > capBytes) {
      return Optional.empty();
    }
    for (Path file : oldestFirst) {
      if (finished + reservedBytes + bytes <= capBytes) {
        break;
      }
      long size = sizeOf(file);
      Files.deleteIfExists(file);
      finished -= size;
      log.info(
          "deleted old JFR evidence {} ({} bytes) to make room for a new one within {} bytes",
          file,
          size,
          capBytes);
    }
    reservedBytes += bytes;
    return Optional.of(new Reservation(bytes));
  }

  /** Bytes held for snapshots being written now. */
  synchronized long reservedBytes() {
    return reservedBytes;
  }

  long capBytes() {
    return capBytes;
  }

  /** The finished snapshots, oldest first. */
  private List<Path> snapshots() throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(directory)) {
      return list.filter(f -> f.toString().endsWith(".jfr"))
          .sorted(Comparator.comparing(SnapshotSpace::modified).thenComparing(Path::toString))
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static long sizeOf(Path file) throws IOException {
    try {
      return Files.size(file);
    } catch (NoSuchFileException gone) {
      return 0; // Deleted meanwhile by another daemon sharing the directory.
    }
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
