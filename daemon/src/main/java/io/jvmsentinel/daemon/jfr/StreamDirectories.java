package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the daemon's JFR streams keep their local chunk copies: {@code <tmp>/jvm-sentinel-jfr/
 * <daemon pid>/<target>-<n>}. A stream's directory is deleted when the stream closes; directories
 * of daemons that no longer run (killed without cleaning up) are deleted at start.
 */
public final class StreamDirectories {
  private static final Logger log = LoggerFactory.getLogger(StreamDirectories.class);

  private final Path root;
  private final Path mine;

  public StreamDirectories(Path tmp) {
    this.root = tmp.resolve("jvm-sentinel-jfr");
    this.mine = root.resolve(Long.toString(ProcessHandle.current().pid()));
  }

  public static StreamDirectories inTempDir() {
    return new StreamDirectories(Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** Deletes what daemons that are gone left behind; returns how many directories. */
  public int removeOrphans() {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    int removed = 0;
    try (Stream<Path> daemons = Files.list(root)) {
      for (Path dir : daemons.toList()) {
        if (!isRunningDaemon(dir.getFileName().toString())) {
          deleteRecursively(dir);
          removed++;
        }
      }
    } catch (IOException | UncheckedIOException e) {
      log.warn("cannot clean up old JFR stream directories under {}: {}", root, e.toString());
    }
    return removed;
  }

  Path create(String target) throws IOException {
    Files.createDirectories(mine);
    return Files.createTempDirectory(mine, target + "-");
  }

  static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException | UncheckedIOException e) {
      log.debug("cannot delete {}: {}", dir, e.toString());
    }
  }

  private static boolean isRunningDaemon(String name) {
    try {
      long pid = Long.parseLong(name);
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
