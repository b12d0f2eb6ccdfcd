package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a process holds, read from {@code /proc/<pid>}: live threads, open descriptors, open TCP
 * connections (not listening sockets) and the entries below a directory. Leak tests compare these
 * before and after many fault cycles.
 *
 * @param threads entries of {@code /proc/<pid>/task}
 * @param fds entries of {@code /proc/<pid>/fd}
 * @param tcpConnections sockets of the process in {@code /proc/<pid>/net/tcp{,6}} not in LISTEN
 * @param jfrDirectories directories the daemon keeps under its JFR chunk root
 */
public record ProcessResources(int threads, int fds, int tcpConnections, int jfrDirectories) {
  private static final String TCP_LISTEN = "0A";
  private static final String TCP_TIME_WAIT = "06";

  /** Reads the process's resources now; {@code jfrRoot} may not exist (0 directories). */
  public static ProcessResources of(long pid, Path jfrRoot) {
    Path proc = Path.of("/proc", Long.toString(pid));
    return new ProcessResources(
        count(proc.resolve("task")),
        count(proc.resolve("fd")),
        tcpConnections(proc),
        Files.isDirectory(jfrRoot) ? countDirectories(jfrRoot) : 0);
  }

  /** A CSV row: threads,fds,tcp,jfrDirectories. */
  public String csv() {
    return threads + "," + fds + "," + tcpConnections + "," + jfrDirectories;
  }

  private static int count(Path dir) {
    try (Stream<Path> entries = Files.list(dir)) {
      return (int) entries.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Chunk directories live two levels down: <root>/<daemon pid>/<target>-<n>.
  private static int countDirectories(Path root) {
    try (Stream<Path> files = Files.walk(root, 2)) {
      return (int)
          files
              .filter(p -> p.getNameCount() == root.getNameCount() + 2)
              .filter(Files::isDirectory)
              .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int tcpConnections(Path proc) {
    Set<String> inodes = ProcFs.socketInodes(proc.resolve("fd"));
    int connections = 0;
    for (String table : List.of("tcp", "tcp6")) {
      try (Stream<String> lines = Files.lines(proc.resolve("net").resolve(table))) {
        connections +=
            (int)
                lines
                    .skip(1)
                    .map(line -> line.trim().split("\\s+"))
                    .filter(f -> !f[3].equals(TCP_LISTEN) && !f[3].equals(TCP_TIME_WAIT))
                    .filter(f -> inodes.contains(f[9]))
                    .count();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return connections;
  }
}
