package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.RemoteJmxConnector;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.tls.NodeCa;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.rmi.registry.LocateRegistry;
import java.rmi.server.RMIClientSocketFactory;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent's JMX agents use mutual TLS, on real forked JVMs of two JDKs (17 and 11), each
 * watched by its own daemon with {@code jmxAgent: remote} (bound to loopback here): the daemon
 * connects, polls and streams; the agent's port refuses a plain JMX client (even with the right
 * password), a TLS client with no certificate and a TLS client with a certificate of another CA;
 * the key and trust stores are gone from the target's /tmp once the agent runs; and when one daemon
 * stops watching its JVM, that JVM's agent is stopped while the other JVM's agent and target keep
 * working.
 */
class NodeAgentTlsIT {
  private static final Duration UP = Duration.ofSeconds(30);
  private static final Duration SLOW = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void agentsUseMutualTlsAndOneIsStoppedWhenItsDaemonStopsWatching() throws Exception {
    String label17 = "tls-17-" + UUID.randomUUID();
    String label11 = "tls-11-" + UUID.randomUUID();
    try (LabProcess jdk17 = lab(label17, Optional.empty());
        LabProcess jdk11 = lab(label11, Optional.of(Jdks.jdk(11)));
        SentinelDaemon watching11 = startDaemon(label11)) {
      String name11 = "LabMain-" + jdk11.pid();
      String name17 = "LabMain-" + jdk17.pid();
      DaemonHttp http11 = new DaemonHttp(watching11.httpPort());
      int port17;
      try (SentinelDaemon watching17 = startDaemon(label17)) {
        DaemonHttp http17 = new DaemonHttp(watching17.httpPort());
        // (b) the daemons' connections work: polled metrics on both, JFR streamed from JDK 17.
        // Beside the other ITs on two cores an agent start, the first TLS handshakes of a cold
        // JVM and the first stream start each can outlast the 2 s timeouts once and retry.
        awaitUp(http17, name17);
        awaitUp(http11, name11);
        await()
            .atMost(SLOW)
            .untilAsserted(
                () ->
                    assertThat(http17.scrape().value("jvm_sentinel_jfr_available", target(name17)))
                        .contains(1.0));
        for (var watched : List.of(Map.entry(http17, name17), Map.entry(http11, name11))) {
          assertThat(
                  watched
                      .getKey()
                      .scrape()
                      .value("jvm_threads_live_threads", Map.of("target", watched.getValue())))
              .hasValueSatisfying(threads -> assertThat(threads).isPositive());
        }

        // (a) each agent refuses every client but the daemon's.
        for (LabProcess lab : List.of(jdk17, jdk11)) {
          int port = portOf(lab);
          assertThat(file(lab, "password")).exists();
          assertThat(Files.getPosixFilePermissions(file(lab, "password")))
              .isEqualTo(PosixFilePermissions.fromString("rw-------"));
          for (String store : List.of("keystore", "truststore", "ssl")) {
            assertThat(file(lab, store)).as("read once by the agent, then removed").doesNotExist();
          }
          assertRefusesAllButTheDaemon(port, password(lab));
        }
        port17 = portOf(jdk17);
      }
      // (c) the JDK 17 JVM is no longer watched: its agent is stopped, its files gone ...
      await().atMost(UP).until(() -> !accepts(port17));
      assertThat(file(jdk17, "agent")).doesNotExist();
      assertThat(file(jdk17, "password")).doesNotExist();
      // ... while the JDK 11 JVM's agent keeps serving its daemon.
      assertThat(accepts(portOf(jdk11))).isTrue();
      double polls =
          http11.scrape().sum("jvm_sentinel_poll_duration_seconds_count", target(name11));
      await()
          .atMost(UP)
          .untilAsserted(
              () -> {
                assertThat(
                        http11
                            .scrape()
                            .sum("jvm_sentinel_poll_duration_seconds_count", target(name11)))
                    .isGreaterThan(polls);
                assertThat(http11.scrape().value("jvm_sentinel_target_up", target(name11)))
                    .contains(1.0);
              });
    }
  }

  private static void awaitUp(DaemonHttp http, String name) {
    await()
        .atMost(SLOW)
        .untilAsserted(
            () ->
                assertThat(http.scrape().value("jvm_sentinel_target_up", target(name)))
                    .contains(1.0));
  }

  private static Map<String, String> target(String name) {
    return Map.of("target", name);
  }

  /**
   * A plain JMX client with the right password, a plain registry lookup, and TLS clients that trust
   * any server but present no certificate or one of another CA: every one is refused.
   */
  private static void assertRefusesAllButTheDaemon(int port, char[] password) throws Exception {
    String url = "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi";
    RemoteJmxConnector plain =
        new RemoteJmxConnector(
            new JMXServiceURL(url), new Credentials("jvmsentinel", password), UP, UP);
    assertThatThrownBy(plain::connect)
        .as("plain JMX, right password")
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> LocateRegistry.getRegistry("127.0.0.1", port).lookup("jmxrmi"))
        .as("plain registry lookup")
        .isInstanceOf(java.rmi.RemoteException.class);

    NodeCa intruder = NodeCa.generate("intruder");
    for (Optional<NodeCa.Issued> clientKey :
        List.of(Optional.<NodeCa.Issued>empty(), Optional.of(intruder.client()))) {
      RMIClientSocketFactory tls = trustingAnyServer(clientKey);
      assertThatThrownBy(() -> LocateRegistry.getRegistry("127.0.0.1", port, tls).lookup("jmxrmi"))
          .as(
              "TLS registry lookup with "
                  + (clientKey.isEmpty() ? "no" : "another CA's")
                  + " client certificate")
          .isInstanceOf(java.rmi.RemoteException.class)
          // The refusal is at the TLS layer: an alert, or (TLS 1.3, where the server judges the
          // client's certificate after the client finished its handshake) the closed connection.
          .satisfies(
              e ->
                  assertThat(causes(e))
                      .anyMatch(c -> c instanceof SSLException || c instanceof SocketException));
    }
  }

  private static List<Throwable> causes(Throwable e) {
    List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable c = e; c != null && !chain.contains(c); c = c.getCause()) {
      chain.add(c);
    }
    return chain;
  }

  /** TLS sockets that accept any server certificate and present {@code key}, if any. */
  private static RMIClientSocketFactory trustingAnyServer(Optional<NodeCa.Issued> key)
      throws Exception {
    KeyManager[] keyManagers = null;
    if (key.isPresent()) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(
          "client",
          key.get().key(),
          new char[0],
          new X509Certificate[] {key.get().certificate(), key.get().ca()});
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, new char[0]);
      keyManagers = factory.getKeyManagers();
    }
    TrustManager anyServer =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers, new TrustManager[] {anyServer}, null);
    return (host, port) -> {
      Socket plain = new Socket();
      plain.connect(new InetSocketAddress(host, port), 2000);
      plain.setSoTimeout(5000);
      SSLSocket socket =
          (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
      socket.startHandshake();
      return socket;
    };
  }

  private LabProcess lab(String label, Optional<Path> javaHome) throws Exception {
    LabSpec.Builder spec =
        LabSpec.builder("idle").withoutJmxRemote().args("--label", label).jvmArgs("-Xmx64m");
    javaHome.ifPresent(spec::javaHome);
    return spec.build().startReady(UP);
  }

  private SentinelDaemon startDaemon(String label) throws Exception {
    return RemoteAgents.startDaemon(dir, label);
  }

  private static Path file(LabProcess lab, String suffix) {
    return Path.of("/tmp", "jvm-sentinel-jmx-" + lab.pid() + "." + suffix);
  }

  private static char[] password(LabProcess lab) throws IOException {
    // "<role> <password>"
    return Files.readString(file(lab, "password")).strip().split(" ", 2)[1].toCharArray();
  }

  private static int portOf(LabProcess lab) throws IOException {
    return RemoteAgents.portOf(Files.readString(file(lab, "agent")));
  }

  private static boolean accepts(int port) {
    return RemoteAgents.accepts(port);
  }
}
