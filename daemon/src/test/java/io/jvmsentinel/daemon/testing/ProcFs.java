package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** What Linux says about a process: its scheduler state and the TCP ports it listens on. */
public final class ProcFs {

  private static final String TCP_LISTEN = "0A";

  private ProcFs() {}

  /** The state letter from {@code /proc/<pid>/stat}: R, S, D, T (stopped), Z, ... */
  public static char state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name in parentheses may contain spaces: the state follows the last ')'.
      return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
    } catch (IOException e) {
      throw new UncheckedIOException("no /proc entry for " + pid, e);
    }
  }

  /** TCP ports (IPv4 and IPv6) on which sockets owned by the process listen. */
  public static Set<Integer> listeningTcpPorts(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    Set<String> socketInodes = socketInodes(proc.resolve("fd"));
    Set<Integer> ports = new TreeSet<>();
    for (String table : List.of("tcp", "tcp6")) {
      try (Stream<String> lines = Files.lines(proc.resolve("net").resolve(table))) {
        lines
            .skip(1)
            .map(line -> line.trim().split("\\s+"))
            .filter(fields -> fields[3].equals(TCP_LISTEN) && socketInodes.contains(fields[9]))
            .forEach(fields -> ports.add(Integer.parseInt(fields[1].split(":")[1], 16)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ports;
  }

  /** The inodes of the sockets among a process's open descriptors ({@code /proc/<pid>/fd}). */
  static Set<String> socketInodes(Path fdDir) {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(fdDir)) {
      fds.forEach(
          fd -> {
            try {
              String target = Files.readSymbolicLink(fd).toString();
              if (target.startsWith("socket:[")) {
                inodes.add(target.substring("socket:[".length(), target.length() - 1));
              }
            } catch (IOException e) {
              // The descriptor was closed while listing.
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return inodes;
  }
}
