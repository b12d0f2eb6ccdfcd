package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import io.jvmsentinel.daemon.discovery.HostJvmScan;
import io.jvmsentinel.daemon.discovery.LocalJvm;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.RemoteAgentConnector;
import io.jvmsentinel.daemon.target.RemoteJmxConnector;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.tls.NodeCa;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The node-agent mode of {@code local} discovery on a real forked JVM (one lab for the class): the
 * {@code /proc} scan sees it as the Attach API does; and the remote JMX agent the daemon starts in
 * a JVM of another pod, forced here ({@code jmxAgent: remote}) on a JVM of this network, so bound
 * to loopback: its password file, polling and JFR through it, a wrong password refused, the secrets
 * the agent stopped and its secrets removed when the daemon stops, an agent left by a dead daemon
 * replaced by the next one, and the clear error for a JVM whose agent is not the daemon's.
 */
class NodeAgentIT {
  private static final Duration UP = Duration.ofSeconds(30);
  private static final Duration READY = Duration.ofSeconds(30);
  private static final String LABEL = "node-agent-" + UUID.randomUUID();
  private static final NodeCa CA = NodeCa.generate("NodeAgentIT");
  private static LabProcess lab;

  @BeforeAll
  static void startLab() throws Exception {
    lab =
        LabSpec.builder("idle")
            .withoutJmxRemote()
            .args("--label", LABEL)
            .jvmArgs("-Xmx64m")
            .build()
            .startReady(READY);
  }

  @AfterAll
  static void stopLab() throws Exception {
    if (lab != null) {
      lab.close();
      Files.deleteIfExists(agentFile("agent"));
    }
  }

  @TempDir Path dir;

  @Test
  void theProcScanFindsTheLabWithTheCommandLineTheAttachApiReports() {
    LocalJvm scanned =
        HostJvmScan.ofThisHost().jvms().stream()
            .filter(jvm -> jvm.pid() == lab.pid())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the scan did not find lab pid " + lab.pid()));
    VirtualMachineDescriptor attach =
        VirtualMachine.list().stream()
            .filter(vm -> vm.id().equals(Long.toString(lab.pid())))
            .findFirst()
            .orElseThrow();
    assertThat(scanned.commandLine()).isEqualTo(attach.displayName()).contains("--label " + LABEL);
    assertThat(scanned.mainClass()).isEqualTo(LabSpec.MAIN_CLASS);
    assertThat(scanned.user()).isEqualTo(ProcessHandle.current().info().user());
    assertThat(HostJvmScan.ofThisHost().jvms())
        .noneMatch(jvm -> jvm.pid() == ProcessHandle.current().pid());
  }

  @Test
  void aForcedRemoteAgentIsPasswordProtectedStreamsJfrAndOutlivesTheDaemonWithoutItsSecrets()
      throws Exception {
    String name = "LabMain-" + lab.pid();
    long started = System.nanoTime();
    try (SentinelDaemon daemon = startDaemon()) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Daemons.awaitJfrStreaming(http, name);
      assertThat(http.scrape().value("jvm_sentinel_target_up", Map.of("target", name)))
          .contains(1.0);
      System.out.printf(
          "NodeAgentIT: remote agent started and JFR streaming in %d ms%n",
          (System.nanoTime() - started) / 1_000_000);

      // The secrets, in the target's /tmp, readable by its user alone.
      Path password = agentFile("password");
      assertThat(Files.getPosixFilePermissions(password))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(Files.getAttribute(password, "unix:uid"))
          .isEqualTo(Files.getAttribute(Path.of("/proc", Long.toString(lab.pid())), "unix:uid"));
      assertThat(Files.getPosixFilePermissions(agentFile("access")))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(Files.readString(agentFile("access"))).isEqualTo("jvmsentinel readwrite\n");
      String url = Files.readString(agentFile("agent")).strip();
      assertThat(url).startsWith("service:jmx:rmi:///jndi/rmi://127.0.0.1:");

      // A plain JMX client is refused, with any password or none (NodeAgentTlsIT: TLS clients).
      for (Credentials wrong :
          List.of(new Credentials("jvmsentinel", "guess".toCharArray()), Credentials.NONE)) {
        RemoteJmxConnector connector =
            new RemoteJmxConnector(new JMXServiceURL(url), wrong, UP, UP);
        assertThatThrownBy(connector::connect).isInstanceOf(IOException.class);
      }
    }
    // Stopped: the agent is stopped, its secrets and its address note are gone.
    assertThat(agentFile("password")).doesNotExist();
    assertThat(agentFile("access")).doesNotExist();
    assertThat(agentFile("agent")).doesNotExist();

    // The next daemon starts a new agent in the same JVM, and is in again.
    try (SentinelDaemon again = startDaemon()) {
      Daemons.awaitUp(new DaemonHttp(again.httpPort()), name);
    }
    assertThat(agentFile("agent")).doesNotExist();
  }

  /**
   * A daemon that dies without stopping its agent (simulated by a connector of another CA never
   * closed) leaves the agent and its note: the next daemon finds it through the note, stops it (its
   * trust store holds the dead daemon's CA) and starts its own; without the note the running agent
   * is not the daemon's, a clear error.
   */
  @Test
  void anAgentLeftByADeadDaemonIsReplacedThroughItsNoteAndRefusedWithout() throws Exception {
    String name = "LabMain-" + lab.pid();
    RemoteAgentConnector crashed =
        new RemoteAgentConnector(lab.pid(), NodeCa.generate("dead daemon"), UP, UP);
    try {
      crashed.connect().close();
      int deadDaemonsPort = portOf(Files.readString(agentFile("agent")));

      try (SentinelDaemon again = startDaemon()) {
        Daemons.awaitUp(new DaemonHttp(again.httpPort()), name);
        assertThat(portOf(Files.readString(agentFile("agent")))).isNotEqualTo(deadDaemonsPort);
        await().atMost(UP).until(() -> !accepts(deadDaemonsPort)); // the dead daemon's agent
      }
      // That daemon stopped the agent it found; another dead daemon starts one, its note is lost.
      crashed.close();
      crashed = new RemoteAgentConnector(lab.pid(), CA, UP, UP);
      crashed.connect().close();
      Files.delete(agentFile("agent"));
      try (SentinelDaemon third = startDaemon()) {
        DaemonHttp http = new DaemonHttp(third.httpPort());
        await()
            .atMost(UP)
            .untilAsserted(
                () ->
                    assertThat(http.get("/api/v1/targets").body())
                        .contains("already runs a JMX agent of its own")
                        .contains("targets:"));
      }
      assertThat(agentFile("password")).doesNotExist();
    } finally {
      crashed.close();
    }
  }

  /**
   * Two JVMs, each watched by its own daemon: when one daemon stops, the agent it started is
   * stopped (its port refuses connections), while the other JVM's agent stays open and its target
   * stays up.
   */
  @Test
  void anAgentIsStoppedWhenItsDaemonStopsAndTheOtherTargetIsUnaffected() throws Exception {
    String otherLabel = "node-agent-other-" + UUID.randomUUID();
    try (LabProcess other =
        LabSpec.builder("idle")
            .withoutJmxRemote()
            .args("--label", otherLabel)
            .jvmArgs("-Xmx64m")
            .build()
            .startReady(READY)) {
      String otherName = "LabMain-" + other.pid();
      Path otherNote = Path.of("/tmp", "jvm-sentinel-jmx-" + other.pid() + ".agent");
      try (SentinelDaemon watchingOther = startDaemon(otherLabel)) {
        DaemonHttp otherHttp = new DaemonHttp(watchingOther.httpPort());
        Daemons.awaitUp(otherHttp, otherName);
        int otherPort = portOf(Files.readString(otherNote));
        int port;
        try (SentinelDaemon daemon = startDaemon()) {
          Daemons.awaitUp(new DaemonHttp(daemon.httpPort()), "LabMain-" + lab.pid());
          port = portOf(Files.readString(agentFile("agent")));
          assertThat(accepts(port)).isTrue();
        }
        assertThat(accepts(port)).as("the stopped daemon's agent port").isFalse();
        assertThat(agentFile("agent")).doesNotExist();

        assertThat(accepts(otherPort)).as("the other JVM's agent port").isTrue();
        assertThat(otherHttp.scrape().value("jvm_sentinel_target_up", Map.of("target", otherName)))
            .as("the other target, still watched")
            .contains(1.0);
      }
      assertThat(otherNote).doesNotExist();
    }
  }

  private static int portOf(String note) {
    return RemoteAgents.portOf(note);
  }

  private static boolean accepts(int port) {
    return RemoteAgents.accepts(port);
  }

  /**
   * A JVM in a network namespace of its own ({@code unshare -rn}: a user and a network namespace,
   * as a pod has) is told apart from the daemon's network, so {@code jmxAgent: auto} takes the
   * remote agent; that fresh namespace has no address the daemon could reach (a pod has its IP),
   * which the target's error says.
   */
  @Test
  void aJvmInAnotherNetworkNamespaceGetsTheRemoteAgentPath() throws Exception {
    String label = "netns-" + UUID.randomUUID();
    List<String> command = new ArrayList<>(List.of("unshare", "-rn"));
    command.addAll(
        LabSpec.builder("idle")
            .withoutJmxRemote()
            .args("--label", label)
            .jvmArgs("-Xmx64m")
            .build()
            .command(0));
    Process isolated;
    try {
      isolated =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("netns-lab.log").toFile())
              .start();
    } catch (IOException e) {
      throw new AssertionError("cannot run unshare (util-linux): " + e.getMessage(), e);
    }
    try {
      String name = "LabMain-" + isolated.pid(); // unshare execs the JVM: same pid
      try (SentinelDaemon daemon =
          Daemons.start(
              dir,
              """
              discovery:
                local:
                  interval: 1s
                  pollInterval: 1s
                  include:
                    - commandLine: '--label %s'
              """
                  .formatted(label))) {
        DaemonHttp http = new DaemonHttp(daemon.httpPort());
        await()
            .atMost(UP)
            .untilAsserted(
                () -> {
                  assertThat(isolated.isAlive())
                      .as("the JVM in its own namespaces (unprivileged user namespaces needed)")
                      .isTrue();
                  assertThat(http.get("/api/v1/targets").body())
                      .contains(name)
                      .contains("JMX agent started by the daemon")
                      .contains("is in another network but has no non-loopback IPv4 address");
                });
      }
      assertThat(Path.of("/tmp", "jvm-sentinel-jmx-" + isolated.pid() + ".password"))
          .doesNotExist();
    } finally {
      isolated.destroyForcibly().waitFor();
    }
  }

  /**
   * The agent properties the daemon passes ({@code port}, {@code rmi.port}, {@code host}, password
   * and access files) are accepted by every JDK of the matrix, not just this one; and {@code
   * ManagementAgent.stop} through the Attach API closes the agent's port on each.
   */
  @ParameterizedTest
  @ValueSource(ints = {11, 21, 25})
  void theRemoteAgentStartsOnEveryJdkOfTheMatrix(int feature) throws Exception {
    try (LabProcess other =
        LabSpec.builder("idle")
            .javaHome(Jdks.jdk(feature))
            .withoutJmxRemote()
            .jvmArgs("-Xmx64m")
            .build()
            .startReady(READY)) {
      Path password = Path.of("/tmp", "jvm-sentinel-jmx-" + other.pid() + ".password");
      RemoteAgentConnector connector = new RemoteAgentConnector(other.pid(), CA, UP, UP);
      int port;
      try (JMXConnector connection = connector.connect()) {
        port =
            portOf(Files.readString(Path.of("/tmp", "jvm-sentinel-jmx-" + other.pid() + ".agent")));
        Object version =
            connection
                .getMBeanServerConnection()
                .getAttribute(new ObjectName("java.lang:type=Runtime"), "SpecVersion");
        assertThat(version).isEqualTo(Integer.toString(feature));
        assertThat(Files.getPosixFilePermissions(password))
            .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      } finally {
        connector.close();
        Files.deleteIfExists(Path.of("/tmp", "jvm-sentinel-jmx-" + other.pid() + ".agent"));
      }
      assertThat(password).doesNotExist();
      assertThat(accepts(port)).as("the agent stopped on JDK " + feature).isFalse();
    }
  }

  private SentinelDaemon startDaemon() throws Exception {
    return startDaemon(LABEL);
  }

  private SentinelDaemon startDaemon(String label) throws Exception {
    return RemoteAgents.startDaemon(dir, label);
  }

  /** The daemon's files for the lab's agent, in the lab's /tmp (this host's: same container). */
  private static Path agentFile(String suffix) {
    return Path.of("/tmp", "jvm-sentinel-jmx-" + lab.pid() + "." + suffix);
  }
}
