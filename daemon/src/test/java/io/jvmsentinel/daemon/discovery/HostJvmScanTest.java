package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host scan on a fake {@code /proc}: JVMs in other containers (their own pid namespace and
 * /tmp), several users, processes that are no JVM, garbage entries and a process that exits between
 * the listing and the read.
 */
class HostJvmScanTest {
  private static final long SELF = 999;

  @TempDir Path dir;
  private Path proc;
  private long uid;

  @BeforeEach
  void fakeProc() throws IOException {
    proc = Files.createDirectories(dir.resolve("proc"));
    // Fake perf-data directories are owned by this test's user: the "right" owner.
    uid = ((Number) Files.getAttribute(proc, "unix:uid")).longValue();
    Path self = Files.createDirectories(proc.resolve(SELF + "/ns"));
    Files.createSymbolicLink(self.resolve("net"), Path.of("net:[host]"));
  }

  @Test
  void aJvmInAnotherContainerIsFoundByItsNamespacePidInItsOwnTmp() throws IOException {
    Path container = dir.resolve("container-orders");
    process(4242, "NSpid:\t4242\t7", container, "orders", 7, "java", "-jar", "/app/orders.jar");
    assertThat(scan())
        .containsExactly(new LocalJvm(4242, "/app/orders.jar", Optional.of("orders"), false));
  }

  @Test
  void jvmsOfSeveralUsersAreListedByHostPidWithMainClassUserAndNetwork() throws IOException {
    Path host = dir.resolve("host");
    process(300, "NSpid:\t300", host, "billing", 300, "java", "-cp", "x", "b.Billing", "run");
    process(100, "NSpid:\t100\t1", dir.resolve("c1"), "root", 1, "java", "a.Orders");
    assertThat(scan())
        .containsExactly(
            new LocalJvm(100, "a.Orders", Optional.of("root"), false),
            new LocalJvm(300, "b.Billing run", Optional.of("billing"), true));
    assertThat(scan().get(1).mainClass()).isEqualTo("b.Billing");
  }

  @Test
  void anUnreadableNetworkNamespaceCountsAsAnotherNetwork() throws IOException {
    process(60, "NSpid:\t60", dir.resolve("host"), "app", 60, "java", "Main");
    Files.delete(proc.resolve("60/ns/net"));
    assertThat(scan()).extracting(LocalJvm::sharesNetwork).containsExactly(false);
  }

  @Test
  void aPerfDataFileTheProcessDoesNotMapIsLeftByAnotherJvm() throws IOException {
    // pid 7 in a container: the JVM that was pid 7 was killed with -9 and left its file; the
    // process that is pid 7 now (same /tmp) is a shell, which maps no perf data.
    Path pod = dir.resolve("pod");
    process(4001, "NSpid:\t4001\t7", pod, "app", 7, "/bin/sh", "/entrypoint.sh");
    Files.writeString(proc.resolve("4001/maps"), "55d4c000-55d4d000 r-xp 0 fe:00 9 /bin/dash\n");
    assertThat(scan()).isEmpty();
  }

  @Test
  void aKernelWithoutNSpidUsesTheHostPid() throws IOException {
    process(55, null, dir.resolve("old"), "app", 55, "java", "Main");
    assertThat(scan()).extracting(LocalJvm::pid).containsExactly(55L);
  }

  @Test
  void processesThatAreNoJvmGarbageAndThisDaemonAreLeftOut() throws IOException {
    Path root = dir.resolve("shared");
    process(10, "NSpid:\t10", root, "app", 10, "java", "Main");
    // A process with a perf-data directory but no file of its own: not a JVM (or -UsePerfData).
    process(11, "NSpid:\t11", root, "app", 12345, "/bin/sh", "-c", "sleep 1");
    // This daemon itself.
    process(SELF, "NSpid:\t" + SELF, root, "app", SELF, "java", "Sentinel");
    // Entries that are not processes, or not readable as one.
    Files.writeString(proc.resolve("uptime"), "1.0 2.0");
    Files.createDirectories(proc.resolve("12ab"));
    Files.createDirectories(proc.resolve("99999999999999999999"));
    Path garbled = Files.createDirectories(proc.resolve("20"));
    Files.writeString(
        garbled.resolve("status"), "Name:\tx\nPid:\tnot-a-number\nUid:\t1\t1\t1\t1\n");
    Path noUid = Files.createDirectories(proc.resolve("21"));
    Files.writeString(noUid.resolve("status"), "Name:\tx\nPid:\t21\n");
    Path noRoot = Files.createDirectories(proc.resolve("22"));
    Files.writeString(noRoot.resolve("status"), status(22, "NSpid:\t22"));
    assertThat(scan()).extracting(LocalJvm::pid).containsExactly(10L);
  }

  @Test
  void aProcessThatExitsWhileTheScanReadsItIsLeftOutAndTheScanGoesOn() throws IOException {
    Path root = dir.resolve("r");
    process(30, "NSpid:\t30", root, "app", 30, "java", "Main");
    process(31, "NSpid:\t31", root, "app", 31, "java", "Gone");
    // Exited after its directory was listed: the kernel's files are gone, the directory empty.
    Files.delete(proc.resolve("31/status"));
    process(32, "NSpid:\t32", root, "app", 32, "java", "Other");
    Files.delete(proc.resolve("32/cmdline"));
    assertThat(scan()).extracting(LocalJvm::pid).containsExactly(30L);
  }

  @Test
  void aMissingProcTreeIsAnErrorNotAnEmptyHost() {
    HostJvmScan scan = new HostJvmScan(proc.resolve("missing"), SELF);
    org.assertj.core.api.Assertions.assertThatThrownBy(scan::jvms)
        .hasMessageContaining("cannot list");
  }

  @Test
  void aProcessFoundToBeNoJvmIsBelievedAfterTheStartUpGraceUntilItExecsAnotherProgram()
      throws IOException {
    AtomicLong clock = new AtomicLong();
    HostJvmScan scan = new HostJvmScan(proc, SELF, clock::get);
    Path root = dir.resolve("r");
    process(70, "NSpid:\t70", root, "app", 12345, "/bin/sh", "-c", "exec java Main");
    stat(70, "sh", 1000);
    process(71, "NSpid:\t71", root, "app", 12345, "java", "Slow");
    stat(71, "java", 1001);
    assertThat(scan.jvms()).isEmpty();

    // Within the grace a process is looked at again: a JVM that wrote its perf data late is found.
    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    Files.write(root.resolve("tmp/hsperfdata_app/71"), new byte[32]);
    mapsPerfData(71, "app", 71);
    assertThat(scan.jvms()).extracting(LocalJvm::pid).containsExactly(71L);

    // After it, "no JVM" stands for the same program (its /tmp is not listed again)...
    clock.addAndGet(HostJvmScan.NOT_A_JVM_AFTER.toNanos());
    assertThat(scan.jvms()).extracting(LocalJvm::pid).containsExactly(71L);
    Files.write(root.resolve("tmp/hsperfdata_app/70"), new byte[32]);
    mapsPerfData(70, "app", 70);
    assertThat(scan.jvms()).extracting(LocalJvm::pid).containsExactly(71L);
    // ... until it execs another (its name changes), or its pid is reused (another start time).
    stat(70, "java", 1000);
    assertThat(scan.jvms()).extracting(LocalJvm::pid).containsExactly(70L, 71L);
    Files.writeString(proc.resolve("70/cmdline"), "java\0Other\0");
    stat(70, "java", 5000);
    assertThat(scan.jvms()).extracting(LocalJvm::commandLine).containsExactly("Other", "Slow");
  }

  /** A running JVM maps its perf-data file (the path as its own /tmp shows it). */
  private void mapsPerfData(long pid, String user, long perfFile) throws IOException {
    Files.writeString(
        proc.resolve(pid + "/maps"),
        "55d4c000-55d4d000 r--p 00000000 fe:00 42   /usr/lib/jvm/bin/java\n"
            + "7f00e000-7f016000 rw-s 00000000 fe:00 43   /tmp/hsperfdata_"
            + user
            + "/"
            + perfFile
            + "\n");
  }

  private void stat(long pid, String name, long startTime) throws IOException {
    Files.writeString(
        proc.resolve(pid + "/stat"),
        pid
            + " ("
            + name
            + ") S 1 "
            + pid
            + " "
            + pid
            + " 0 -1 4194560 100 0 0 0 3 1 0 0 20 0 1 0 "
            + startTime
            + " 2048000 300 18446744073709551615\n");
  }

  private List<LocalJvm> scan() {
    return new HostJvmScan(proc, SELF).jvms();
  }

  /**
   * A process under the fake /proc: its status, its cmdline, its root (a link, as in /proc) and the
   * perf-data file {@code tmp/hsperfdata_<user>/<perfFile>} in that root.
   */
  private void process(
      long pid, String nsPidLine, Path root, String user, long perfFile, String... argv)
      throws IOException {
    Path entry = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(entry.resolve("status"), status(pid, nsPidLine));
    Files.writeString(entry.resolve("cmdline"), String.join("\0", argv) + "\0");
    Path perf = Files.createDirectories(root.resolve("tmp/hsperfdata_" + user));
    Files.write(perf.resolve(Long.toString(perfFile)), new byte[32]);
    Files.createSymbolicLink(entry.resolve("root"), root);
    mapsPerfData(pid, user, perfFile);
    // One network namespace per root, as one per pod: the root named "host" is the daemon's.
    Path net = Files.createDirectories(entry.resolve("ns")).resolve("net");
    if (!Files.isSymbolicLink(net)) { // this daemon's own entry has it already
      Files.createSymbolicLink(net, Path.of("net:[" + root.getFileName() + "]"));
    }
  }

  private String status(long pid, String nsPidLine) {
    return "Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t"
        + pid
        + "\nPid:\t"
        + pid
        + "\nPPid:\t1\n"
        + (nsPidLine == null ? "" : nsPidLine + "\n")
        + "Uid:\t"
        + uid
        + "\t"
        + uid
        + "\t"
        + uid
        + "\t"
        + uid
        + "\nGid:\t0\t0\t0\t0\n";
  }
}
