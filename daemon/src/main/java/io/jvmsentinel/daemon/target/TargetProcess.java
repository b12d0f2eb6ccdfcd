package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code /proc} tells about a target process that lives in another container: its view of
 * /tmp, its user, whether it shares this daemon's network, its own address and the TCP ports in use
 * in its network. Every path goes through {@code /proc/<pid>}, so it works across mount and network
 * namespaces for a daemon that may read them (root, or {@code CAP_SYS_PTRACE} and the same user).
 */
final class TargetProcess {
  private final Path proc;
  private final long pid;
  private final long self;

  /** The node's init process in a hostPID view: its network namespace is the host's. */
  private static final long HOST_INIT = 1;

  /**
   * @param proc the proc file system ({@code /proc}; tests pass a tree of their own)
   * @param pid the target's pid as this daemon sees it
   * @param self this daemon's pid as seen in {@code proc}
   */
  TargetProcess(Path proc, long pid, long self) {
    this.proc = proc;
    this.pid = pid;
    this.self = self;
  }

  static TargetProcess onThisHost(long pid) {
    return new TargetProcess(Path.of("/proc"), pid, ProcessHandle.current().pid());
  }

  private Path dir() {
    return proc.resolve(Long.toString(pid));
  }

  /** The target's {@code /tmp}, as this daemon reaches it. */
  Path tmp() {
    return dir().resolve("root").resolve("tmp");
  }

  /** The target's effective user and group (the owners of its {@code /proc} entry). */
  Owner owner() throws IOException {
    Path dir = dir();
    return new Owner(
        ((Number) Files.getAttribute(dir, "unix:uid")).intValue(),
        ((Number) Files.getAttribute(dir, "unix:gid")).intValue());
  }

  /**
   * Whether the target is in this daemon's network namespace (then loopback reaches it).
   *
   * @throws IOException naming the link that could not be read, and what the daemon needs
   */
  boolean sharesNetwork() throws IOException {
    return namespace(self).equals(namespace(pid));
  }

  /**
   * Whether the target is in the host's network namespace (that of pid 1 as this daemon sees it: a
   * node agent has the node's pids): a hostNetwork pod, whose addresses are the node's.
   */
  boolean inHostNetwork() throws IOException {
    try {
      Files.readSymbolicLink(netLink(HOST_INIT));
    } catch (AccessDeniedException e) {
      // Not a node agent (root with SYS_PTRACE reads it): a daemon of one user among the host's
      // processes, which starts agents only in its own user's JVMs; refusing would only break it.
      return false;
    } catch (IOException e) {
      // said below, with what the daemon needs
    }
    return namespace(HOST_INIT).equals(namespace(pid));
  }

  private Path netLink(long process) {
    return proc.resolve(Long.toString(process)).resolve("ns").resolve("net");
  }

  private Path namespace(long process) throws IOException {
    Path link = netLink(process);
    try {
      return Files.readSymbolicLink(link);
    } catch (IOException e) {
      throw new IOException(
          "cannot read "
              + link
              + " ("
              + e
              + "), so cannot tell whether pid "
              + pid
              + " shares the daemon's network; the daemon needs root or CAP_SYS_PTRACE to read"
              + " the namespaces of other users' processes");
    }
  }

  /**
   * The target's own non-loopback IPv4 address (a pod's IP), from the local routes of its network
   * ({@code /proc/<pid>/net/fib_trie}).
   */
  Optional<String> ownAddress() throws IOException {
    return FibTrie.localAddresses(Files.readAllLines(dir().resolve("net").resolve("fib_trie")))
        .stream()
        .filter(address -> !address.startsWith("127."))
        .findFirst();
  }

  /** The local TCP ports in use (any state) in the target's network. */
  Set<Integer> portsInUse() throws IOException {
    Set<Integer> ports = new HashSet<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = dir().resolve("net").resolve(table);
      if (!Files.exists(file)) {
        continue; // no IPv6 in that network
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 3 && fields[1].contains(":")) {
          ports.add(Integer.parseInt(fields[1].substring(fields[1].lastIndexOf(':') + 1), 16));
        }
      }
    }
    return ports;
  }

  long pid() {
    return pid;
  }

  record Owner(int uid, int gid) {}

  /** Reads the local addresses out of {@code /proc/net/fib_trie}. */
  static final class FibTrie {
    private FibTrie() {}

    /**
     * The addresses the kernel lists as {@code /32 host LOCAL}: the addresses of this network's
     * interfaces, each once, in the order listed.
     */
    static List<String> localAddresses(List<String> lines) {
      Set<String> addresses = new LinkedHashSet<>();
      for (int i = 1; i < lines.size(); i++) {
        String line = lines.get(i).trim();
        String previous = lines.get(i - 1).trim();
        if (line.startsWith("/32 host LOCAL") && previous.startsWith("|-- ")) {
          addresses.add(previous.substring(4).trim());
        }
      }
      return List.copyOf(addresses);
    }
  }
}
