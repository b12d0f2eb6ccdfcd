package io.jvmsentinel.daemon.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the host's HotSpot JVMs from {@code /proc}, in every container: the node-agent view.
 *
 * <p>The Attach API's {@code VirtualMachine.list()} only reads this process's own {@code
 * /tmp/hsperfdata_*}, so in a DaemonSet pod (own mount namespace, {@code hostPID}) it sees none of
 * the other pods' JVMs. Here every process is looked at through its own root: a process is a
 * HotSpot JVM when {@code /proc/<pid>/root/tmp/hsperfdata_<user>/<nspid>} exists, where nspid is
 * its pid inside its own pid namespace (the last value of {@code NSpid} in its status), which is
 * the name the JVM gave the file. The user is that directory's name, as the Attach API reports it.
 *
 * <p>Processes exit while they are read, and some cannot be read at all (another user's root
 * without {@code CAP_SYS_PTRACE}): those are left out, and the scan goes on.
 */
public final class HostJvmScan {
  private static final Logger log = LoggerFactory.getLogger(HostJvmScan.class);
  private static final String PERF_DATA_PREFIX = "hsperfdata_";
  private static final Path NET = Path.of("ns", "net");

  /** How long a process is looked at again before "not a JVM" is believed (JVM start-up). */
  static final Duration NOT_A_JVM_AFTER = Duration.ofSeconds(10);

  private final Path proc;
  private final long self;
  private final LongSupplier nanoTime;
  // What each process was found to be, by pid; only the scanning thread uses it.
  private final Map<Long, Verdict> verdicts = new HashMap<>();

  /**
   * @param proc the proc file system ({@code /proc}; tests pass a tree of their own)
   * @param self the pid of this daemon on the host, left out of the list
   * @param nanoTime the clock of {@link #NOT_A_JVM_AFTER}
   */
  public HostJvmScan(Path proc, long self, LongSupplier nanoTime) {
    this.proc = proc;
    this.self = self;
    this.nanoTime = nanoTime;
  }

  public HostJvmScan(Path proc, long self) {
    this(proc, self, System::nanoTime);
  }

  /**
   * What a process was found to be, while it is the same program: same pid, start time and name
   * ({@code /proc/<pid>/stat}; an {@code exec} changes the name). Listing a process's /tmp is most
   * of a scan's cost (0.6 ms a process measured here), so a JVM is not looked at again, and neither
   * is a process found to be no JVM for {@link #NOT_A_JVM_AFTER}.
   */
  private record Verdict(String identity, Optional<LocalJvm> jvm, long firstSeenNanos) {}

  /** The scan of the real {@code /proc}, without this JVM. */
  public static HostJvmScan ofThisHost() {
    return new HostJvmScan(Path.of("/proc"), ProcessHandle.current().pid());
  }

  /** The JVMs running now, by host pid. */
  public synchronized List<LocalJvm> jvms() {
    List<LocalJvm> jvms = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
      for (Path entry : entries) {
        OptionalLong pid = pid(entry.getFileName().toString());
        if (pid.isPresent() && pid.getAsLong() != self) {
          seen.add(pid.getAsLong());
          known(entry, pid.getAsLong()).ifPresent(jvms::add);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + proc, e);
    }
    verdicts.keySet().retainAll(seen);
    jvms.sort(Comparator.comparingLong(LocalJvm::pid));
    return jvms;
  }

  private Optional<LocalJvm> known(Path process, long pid) {
    Optional<String> identity = identity(process);
    long now = nanoTime.getAsLong();
    Verdict verdict = verdicts.get(pid);
    if (identity.isPresent() && verdict != null && verdict.identity().equals(identity.get())) {
      boolean settled =
          verdict.jvm().isPresent() || now - verdict.firstSeenNanos() >= NOT_A_JVM_AFTER.toNanos();
      if (settled) {
        return verdict.jvm();
      }
      Optional<LocalJvm> jvm = jvm(process, pid);
      verdicts.put(pid, new Verdict(identity.get(), jvm, verdict.firstSeenNanos()));
      return jvm;
    }
    Optional<LocalJvm> jvm = jvm(process, pid);
    identity.ifPresentOrElse(
        id -> verdicts.put(pid, new Verdict(id, jvm, now)), () -> verdicts.remove(pid));
    return jvm;
  }

  /** Start time and name from {@code /proc/<pid>/stat}; empty when unreadable (then no cache). */
  private static Optional<String> identity(Path process) {
    try {
      String stat = Files.readString(process.resolve("stat"), StandardCharsets.UTF_8);
      int nameEnd = stat.lastIndexOf(')');
      String[] after = stat.substring(nameEnd + 2).split(" ");
      // Field 22 (starttime) is the 20th after the name: state is field 3.
      return after.length > 19
          ? Optional.of(stat.substring(0, nameEnd + 1) + " " + after[19])
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private Optional<LocalJvm> jvm(Path process, long pid) {
    try {
      ProcessStatus status = ProcessStatus.read(process.resolve("status"));
      Optional<String> user = perfDataUser(process, status);
      if (user.isEmpty()) {
        return Optional.empty();
      }
      String commandLine = JavaCommandLine.of(arguments(process.resolve("cmdline")));
      return Optional.of(
          new LocalJvm(
              pid,
              commandLine,
              user,
              sharesNetwork(process),
              ProcessCgroup.read(process.resolve("cgroup"))));
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      // Exited meanwhile, not ours to read, or not a process at all: not a JVM to watch.
      log.debug("pid {} left out of the JVM scan: {}", pid, e.toString());
      return Optional.empty();
    }
  }

  /**
   * The user whose perf-data directory holds this process's file, in the process's own /tmp; empty
   * when there is none (not a HotSpot JVM, or one run with -XX:-UsePerfData).
   *
   * <p>A file of that name alone proves little: a JVM killed with -9 leaves its file behind, and in
   * a container the next process often gets the same small pid. So the directory must be the
   * process's user's, and the process must have the file mapped, as a running JVM does.
   */
  private static Optional<String> perfDataUser(Path process, ProcessStatus status)
      throws IOException {
    Path tmp = process.resolve("root").resolve("tmp");
    String file = Long.toString(status.namespacePid());
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PERF_DATA_PREFIX + "*")) {
      for (Path dir : dirs) {
        if (Files.isRegularFile(dir.resolve(file))
            && ownerUid(dir) == status.effectiveUid()
            && maps(process, "/" + dir.getFileName() + "/" + file)) {
          return Optional.of(dir.getFileName().toString().substring(PERF_DATA_PREFIX.length()));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether the process has a file whose path ends with {@code suffix} mapped. */
  private static boolean maps(Path process, String suffix) throws IOException {
    try (Stream<String> lines = Files.lines(process.resolve("maps"), StandardCharsets.UTF_8)) {
      return lines.anyMatch(line -> line.endsWith(suffix));
    }
  }

  private static long ownerUid(Path dir) {
    try {
      return ((Number) Files.getAttribute(dir, "unix:uid")).longValue();
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
  }

  /**
   * Whether the process is in this daemon's network namespace. Unreadable counts as not: the
   * remote-agent connector then reads it again and says what the daemon lacks.
   */
  private boolean sharesNetwork(Path process) {
    try {
      Path mine = Files.readSymbolicLink(proc.resolve(Long.toString(self)).resolve(NET));
      return mine.equals(Files.readSymbolicLink(process.resolve(NET)));
    } catch (IOException | UnsupportedOperationException e) {
      log.debug("network namespace of {} unreadable: {}", process, e.toString());
      return false;
    }
  }

  private static List<String> arguments(Path cmdline) throws IOException {
    String text = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8);
    if (text.endsWith("\0")) {
      text = text.substring(0, text.length() - 1);
    }
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\0", -1));
  }

  private static OptionalLong pid(String name) {
    if (name.isEmpty() || name.length() > 10 || !name.chars().allMatch(Character::isDigit)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(name));
  }
}
