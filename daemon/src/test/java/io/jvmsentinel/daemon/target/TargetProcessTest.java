package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.tls.NodeCa;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A target in another pod as {@code /proc} shows it (a fake tree): its network, its address and
 * ports, and the agent files the daemon writes into its /tmp.
 */
class TargetProcessTest {
  private static final long SELF = 10;
  private static final long POD = 4242;

  /** The Local table of a pod's fib_trie: loopback and the pod IP (abridged from a real node). */
  private static final String POD_FIB_TRIE =
      """
      Main:
        +-- 0.0.0.0/0 3 0 5
           |-- 0.0.0.0
              /0 universe UNICAST
           +-- 10.244.1.0/24 2 0 2
              |-- 10.244.1.0
                 /24 link UNICAST
              |-- 10.244.1.17
                 /32 host LOCAL
      Local:
        +-- 0.0.0.0/0 3 0 5
           +-- 127.0.0.0/8 2 0 2
              |-- 127.0.0.1
                 /32 host LOCAL
              |-- 127.255.255.255
                 /32 link BROADCAST
           |-- 10.244.1.17
              /32 host LOCAL
           |-- 10.244.1.255
              /32 link BROADCAST
      """;

  @TempDir Path proc;

  @Test
  void aPodInItsOwnNetworkIsReachedOnItsOwnAddress() throws IOException {
    net(SELF, "net:[4026531840]");
    net(POD, "net:[4026532999]");
    Files.writeString(pod().resolve("net/fib_trie"), POD_FIB_TRIE);
    TargetProcess target = new TargetProcess(proc, POD, SELF);
    assertThat(target.sharesNetwork()).isFalse();
    assertThat(target.ownAddress()).contains("10.244.1.17");
    assertThat(TargetProcess.FibTrie.localAddresses(POD_FIB_TRIE.lines().toList()))
        .containsExactly("10.244.1.17", "127.0.0.1");

    net(SELF + 1, "net:[4026532999]");
    assertThat(new TargetProcess(proc, POD, SELF + 1).sharesNetwork()).isTrue();
  }

  /**
   * The remote agent's address, decided from the namespaces alone: a pod in its own network gets
   * its pod IP; a JVM in the host's network (that of pid 1, the node's init in a hostPID view) is
   * refused unless opted in, and then gets the node's address; a JVM in the daemon's own network (a
   * daemon in the host's network too, or a plain host) gets loopback, opted in or not.
   */
  @Test
  void aJvmInTheHostsNetworkGetsNoAgentUnlessOptedIn() throws IOException {
    String host = "net:[4026531840]";
    net(1, host);
    net(SELF, "net:[4026532100]"); // the node agent's own pod network
    net(POD, host); // a hostNetwork pod
    Files.writeString(pod().resolve("net/fib_trie"), POD_FIB_TRIE);
    TargetProcess hostNetwork = new TargetProcess(proc, POD, SELF);
    assertThat(hostNetwork.inHostNetwork()).isTrue();

    assertThatThrownBy(() -> AgentBindAddress.of(hostNetwork, false))
        .isInstanceOf(AgentBindAddress.HostNetworkRefused.class)
        .hasMessageContaining("pid 4242 runs in the host's network (a hostNetwork pod)")
        .hasMessageContaining("not watched")
        .hasMessageContaining("discovery.local.allowHostNetwork: true");
    assertThat(AgentBindAddress.of(hostNetwork, true)).isEqualTo("10.244.1.17");

    long ownPod = POD + 1;
    net(ownPod, "net:[4026532999]");
    Files.writeString(proc.resolve(Long.toString(ownPod)).resolve("net/fib_trie"), POD_FIB_TRIE);
    TargetProcess pod = new TargetProcess(proc, ownPod, SELF);
    assertThat(pod.inHostNetwork()).isFalse();
    assertThat(AgentBindAddress.of(pod, false)).isEqualTo("10.244.1.17");

    // A daemon that may not read pid 1's namespace is no node agent: it cannot tell, and refuses
    // not.
    Path initNs = proc.resolve("1/ns");
    Files.setPosixFilePermissions(initNs, PosixFilePermissions.fromString("---------"));
    try {
      if (!Files.isReadable(initNs)) { // root reads it anyway
        assertThat(hostNetwork.inHostNetwork()).isFalse();
      }
    } finally {
      Files.setPosixFilePermissions(initNs, PosixFilePermissions.fromString("rwx------"));
    }

    long daemonOnTheHost = SELF + 1;
    net(daemonOnTheHost, host);
    for (boolean allowed : new boolean[] {false, true}) {
      assertThat(AgentBindAddress.of(new TargetProcess(proc, POD, daemonOnTheHost), allowed))
          .isEqualTo("127.0.0.1");
    }
  }

  @Test
  void aNetworkWithLoopbackAloneHasNoOwnAddress() throws IOException {
    net(POD, "net:[1]");
    Files.writeString(
        pod().resolve("net/fib_trie"), "Local:\n  |-- 127.0.0.1\n     /32 host LOCAL\n");
    assertThat(new TargetProcess(proc, POD, SELF).ownAddress()).isEmpty();
  }

  @Test
  void anUnreadableNamespaceSaysWhatTheDaemonNeeds() throws IOException {
    net(SELF, "net:[1]");
    Files.createDirectories(pod());
    assertThatThrownBy(() -> new TargetProcess(proc, POD, SELF).sharesNetwork())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot tell whether pid 4242 shares the daemon's network")
        .hasMessageContaining("CAP_SYS_PTRACE");
  }

  @Test
  void portsInUseAreEveryLocalPortOfItsTcpTablesInAnyState() throws IOException {
    net(POD, "net:[1]");
    String header =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n";
    Files.writeString(
        pod().resolve("net/tcp"),
        header
            + "   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1\n"
            + "   1: 1101F40A:A8C2 0A01F40A:1F90 01 00000000:00000000 00:00000000 00000000  1\n");
    Files.writeString(
        pod().resolve("net/tcp6"),
        header
            + "   0: 00000000000000000000000000000000:2382 00000000000000000000000000000000:0000"
            + " 0A 00000000:00000000 00:00000000 00000000  1\n");
    assertThat(new TargetProcess(proc, POD, SELF).portsInUse())
        .containsExactlyInAnyOrder(8080, 43202, 9090);
  }

  @Test
  void aFreePortIsOneNothingUses() {
    Set<Integer> inUse = new HashSet<>();
    IntStream.range(20_000, 30_000).filter(p -> p != 24_242).forEach(inUse::add);
    assertThat(RemoteAgentConnector.freePort(inUse)).isEqualTo(24_242);
  }

  @Test
  void agentFilesAreOwnerOnlyAndOnlyTheAddressNoteOutlivesTheSecrets() throws IOException {
    Path tmp = Files.createDirectories(pod().resolve("root/tmp"));
    int uid = ((Number) Files.getAttribute(tmp, "unix:uid")).intValue();
    int gid = ((Number) Files.getAttribute(tmp, "unix:gid")).intValue();
    AgentFiles files = new AgentFiles(tmp, POD, new TargetProcess.Owner(uid, gid));
    assertThat(files.passwordFileInTarget()).isEqualTo("/tmp/jvm-sentinel-jmx-4242.password");
    assertThat(files.rememberedAddress()).isEmpty();

    files.write("jvmsentinel", "s3cret".toCharArray());
    files.rememberAddress("service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi");
    Path password = tmp.resolve("jvm-sentinel-jmx-4242.password");
    assertThat(Files.readString(password)).isEqualTo("jvmsentinel s3cret\n");
    assertThat(Files.readString(tmp.resolve("jvm-sentinel-jmx-4242.access")))
        .isEqualTo("jvmsentinel readwrite\n");
    for (String suffix : new String[] {"password", "access", "agent"}) {
      assertThat(Files.getPosixFilePermissions(tmp.resolve("jvm-sentinel-jmx-4242." + suffix)))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }
    files.rewritePassword("jvmsentinel", "n3w".toCharArray());
    assertThat(Files.readString(password)).isEqualTo("jvmsentinel n3w\n");

    files.removeSecrets();
    assertThat(password).doesNotExist();
    assertThat(tmp.resolve("jvm-sentinel-jmx-4242.access")).doesNotExist();
    assertThat(files.rememberedAddress())
        .contains("service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi");
    try (var left = Files.list(tmp)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .containsExactly("jvm-sentinel-jmx-4242.agent");
    }
  }

  /**
   * The agent's TLS files: owner-only, the stores readable as JKS (what a JDK 8 to 25 agent opens
   * them as) with the password the SSL configuration names, a link planted at a store's name
   * replaced rather than followed, and all three gone after the start.
   */
  @Test
  void agentTlsFilesAreOwnerOnlyJksNeverFollowLinksAndGoAfterTheStart() throws Exception {
    Path tmp = Files.createDirectories(pod().resolve("root/tmp"));
    Path victim = Files.writeString(proc.resolve("daemon-store"), "keep\n");
    Files.createSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.keystore"), victim);
    int uid = ((Number) Files.getAttribute(tmp, "unix:uid")).intValue();
    int gid = ((Number) Files.getAttribute(tmp, "unix:gid")).intValue();
    AgentFiles files = new AgentFiles(tmp, POD, new TargetProcess.Owner(uid, gid));
    NodeCa ca = NodeCa.generate("test node");

    files.writeTls(
        AgentTlsStores.of(ca.issueServer("agent", InetAddress.getLoopbackAddress()), files));

    assertThat(victim).hasContent("keep");
    assertThat(Files.isSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.keystore"))).isFalse();
    Properties config = new Properties();
    try (var in = Files.newInputStream(tmp.resolve("jvm-sentinel-jmx-4242.ssl"))) {
      config.load(in);
    }
    assertThat(config.getProperty("javax.net.ssl.keyStore"))
        .isEqualTo("/tmp/jvm-sentinel-jmx-4242.keystore");
    assertThat(config.getProperty("javax.net.ssl.trustStore"))
        .isEqualTo("/tmp/jvm-sentinel-jmx-4242.truststore");
    KeyStore keys = KeyStore.getInstance("JKS");
    try (var in = Files.newInputStream(tmp.resolve("jvm-sentinel-jmx-4242.keystore"))) {
      keys.load(in, config.getProperty("javax.net.ssl.keyStorePassword").toCharArray());
    }
    assertThat(keys.getCertificateChain("agent")).hasSize(2);
    KeyStore trust = KeyStore.getInstance("JKS");
    try (var in = Files.newInputStream(tmp.resolve("jvm-sentinel-jmx-4242.truststore"))) {
      trust.load(in, config.getProperty("javax.net.ssl.trustStorePassword").toCharArray());
    }
    assertThat(trust.getCertificate("node-ca")).isEqualTo(ca.certificate());
    for (String suffix : new String[] {"keystore", "truststore", "ssl"}) {
      assertThat(Files.getPosixFilePermissions(tmp.resolve("jvm-sentinel-jmx-4242." + suffix)))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    files.removeTls();
    try (var left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void linksPlantedInTheTargetsTmpAreNeverFollowed() throws IOException {
    Path tmp = Files.createDirectories(pod().resolve("root/tmp"));
    Path victim = Files.writeString(proc.resolve("daemon-file"), "keep\n");
    int uid = ((Number) Files.getAttribute(tmp, "unix:uid")).intValue();
    AgentFiles files = new AgentFiles(tmp, POD, new TargetProcess.Owner(uid, uid));
    // A link where the note is read, and where the files are written and replaced.
    Files.createSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.agent"), victim);
    assertThat(files.rememberedAddress()).isEmpty();
    Files.createSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.password.new"), victim);
    Files.createSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.password"), victim);
    files.write("jvmsentinel", "s3cret".toCharArray());
    assertThat(Files.readString(victim)).isEqualTo("keep\n");
    assertThat(Files.isSymbolicLink(tmp.resolve("jvm-sentinel-jmx-4242.password"))).isFalse();
    files.removeSecrets();
    assertThat(victim).hasContent("keep");

    // A /tmp that is itself a link gets nothing written.
    Path linkedTmp = Files.createDirectories(proc.resolve("777/root"));
    Files.createSymbolicLink(linkedTmp.resolve("tmp"), proc);
    AgentFiles elsewhere =
        new AgentFiles(linkedTmp.resolve("tmp"), 777, new TargetProcess.Owner(uid, uid));
    assertThatThrownBy(() -> elsewhere.write("jvmsentinel", "x".toCharArray()))
        .hasMessageContaining("is not a directory");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "service:jmx:rmi:///stub/rO0ABXNyAC5qYXZheC5tYW5hZ2VtZW50LnJlbW90ZS5ybWkuUk1JU2VydmVySW1wbF9TdHVi",
        "service:jmx:rmi:///jndi/ldap://attacker.example:389/cn=jmx",
        "service:jmx:rmi:///jndi/rmi://attacker.example:24242/jmxrmi",
        "service:jmx:rmi:///jndi/rmi://10.244.1.18:24242/jmxrmi",
        "service:jmx:rmi:///jndi/rmi://10.244.1.17:9010/jmxrmi",
        "service:jmx:rmi:///jndi/rmi://10.244.1.17:31000/jmxrmi",
        "service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi?x",
        "service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/other",
        "service:jmx:jmxmp://10.244.1.17:24242",
        "service:jmx:rmi://10.244.1.17:24242/jndi/rmi://10.244.1.17:24242/jmxrmi",
        ""
      })
  void aNoteIsUsedOnlyWhenItIsExactlyAnAddressTheDaemonStartsHere(String note) {
    assertThat(RemoteAgentConnector.startedByDaemon(note, "10.244.1.17")).isEmpty();
    assertThat(
            RemoteAgentConnector.startedByDaemon(
                "service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi", "10.244.1.17"))
        .contains("service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi");
  }

  @Test
  void aPlantedNoteIsReadOnlyAsTextAndATmpThatIsALinkIsNeverEntered() throws IOException {
    Path tmp = Files.createDirectories(pod().resolve("root/tmp"));
    int uid = ((Number) Files.getAttribute(tmp, "unix:uid")).intValue();
    AgentFiles files = new AgentFiles(tmp, POD, new TargetProcess.Owner(uid, uid));
    // The target plants a note pointing at a serialized stub: read as text, refused by the check.
    Files.writeString(
        tmp.resolve("jvm-sentinel-jmx-4242.agent"), "service:jmx:rmi:///stub/rO0ABXNy\n");
    assertThat(files.rememberedAddress()).contains("service:jmx:rmi:///stub/rO0ABXNy");
    assertThat(
            files
                .rememberedAddress()
                .flatMap(note -> RemoteAgentConnector.startedByDaemon(note, "10.244.1.17")))
        .isEmpty();
    // A directory planted as the note is no note.
    Files.delete(tmp.resolve("jvm-sentinel-jmx-4242.agent"));
    Files.createDirectory(tmp.resolve("jvm-sentinel-jmx-4242.agent"));
    assertThat(files.rememberedAddress()).isEmpty();

    // /tmp swapped for a link to a directory of the daemon's, holding a note, secrets and files.
    Path daemonDir = Files.createDirectories(proc.resolve("daemon-dir"));
    Files.writeString(
        daemonDir.resolve("jvm-sentinel-jmx-4242.agent"),
        "service:jmx:rmi:///jndi/rmi://10.244.1.17:24242/jmxrmi\n");
    Files.writeString(daemonDir.resolve("jvm-sentinel-jmx-4242.password"), "keep\n");
    Path linkedRoot = Files.createDirectories(proc.resolve("778/root"));
    Files.createSymbolicLink(linkedRoot.resolve("tmp"), daemonDir);
    AgentFiles linked =
        new AgentFiles(linkedRoot.resolve("tmp"), 778, new TargetProcess.Owner(uid, uid));
    assertThatThrownBy(linked::rememberedAddress).hasMessageContaining("is not a directory");
    assertThatThrownBy(linked::removeSecrets).hasMessageContaining("is not a directory");
    assertThatThrownBy(() -> linked.rewritePassword("jvmsentinel", "x".toCharArray()))
        .hasMessageContaining("is not a directory");
    assertThat(daemonDir.resolve("jvm-sentinel-jmx-4242.password")).hasContent("keep");
    try (var left = Files.list(daemonDir)) {
      assertThat(left).hasSize(2);
    }
  }

  private Path pod() {
    return proc.resolve(Long.toString(POD));
  }

  private void net(long pid, String namespace) throws IOException {
    Path dir = proc.resolve(Long.toString(pid));
    Files.createDirectories(dir.resolve("net"));
    Files.createDirectories(dir.resolve("ns"));
    Files.createSymbolicLink(dir.resolve("ns/net"), Path.of(namespace));
  }
}
