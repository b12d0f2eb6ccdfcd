package io.jvmsentinel.daemon.detection;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Unique snapshot file names in a directory that other daemons may share (two daemons watching
 * targets of the same name, a restarted daemon): a snapshot first reserves its {@code .part} file,
 * created only if no such file exists, and is published under a name no file holds yet; a taken
 * name gets {@code -2}, {@code -3} and so on, never another daemon's file overwritten.
 */
final class SnapshotFiles {
  private static final int MAX_TRIES = 100;
  static final String PART = ".part";

  private SnapshotFiles() {}

  /** Creates and returns a new, empty {@code <name>[-n].jfr.part} in {@code directory}. */
  static Path reservePart(Path directory, String baseName) throws IOException {
    for (int n = 1; n <= MAX_TRIES; n++) {
      Path file = directory.resolve(candidate(baseName, n));
      if (Files.exists(file)) {
        continue;
      }
      try {
        return Files.createFile(file.resolveSibling(file.getFileName() + PART));
      } catch (FileAlreadyExistsException taken) {
        // Another snapshot of the same name is being written: try the next name.
      }
    }
    throw new IOException(MAX_TRIES + " snapshots named " + baseName + " exist in " + directory);
  }

  /**
   * Renames a checked {@code part} to its {@code .jfr} name, or the next free name if that one was
   * taken meanwhile; returns the published file.
   */
  static Path publish(Path part) throws IOException {
    String partName = part.getFileName().toString();
    String name = partName.substring(0, partName.length() - PART.length());
    String base = name.substring(0, name.length() - ".jfr".length());
    for (int n = 1; n <= MAX_TRIES; n++) {
      Path file = part.resolveSibling(candidate(base, n));
      try {
        // Without REPLACE_EXISTING a file of that name is never overwritten.
        return Files.move(part, file);
      } catch (FileAlreadyExistsException taken) {
        // Published by another daemon since this part was reserved.
      }
    }
    throw new IOException(MAX_TRIES + " snapshots named " + base + " exist");
  }

  private static String candidate(String baseName, int n) {
    return (n == 1 ? baseName : baseName + "-" + n) + ".jfr";
  }
}
