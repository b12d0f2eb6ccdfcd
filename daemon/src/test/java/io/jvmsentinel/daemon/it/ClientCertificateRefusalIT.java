package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.StoreFile;
import io.jvmsentinel.daemon.config.TargetTlsConfig;
import io.jvmsentinel.daemon.config.TlsTrust;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.target.ConnectFailure;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.TlsJmxConnector;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A JDK agent on TLS 1.3 that needs a client certificate and gets none, or one it does not trust,
 * refuses it after the client's handshake is over: its {@code bad_certificate} alert races the
 * daemon's first write, so on some attempts (15 to 35 % measured on JDK 11, 17 and 21 targets) the
 * connect fails as a bare {@code SocketException: Broken pipe}. Every attempt, alert or broken
 * pipe, must count as reason {@code tls} and say that the target requires a client certificate and
 * what to configure; a daemon counts none as {@code error}.
 */
class ClientCertificateRefusalIT {
  private static final String SERVER_PW = "srv-key-pw-4hd2";
  private static final String CLIENTS_PW = "clients-pw-8sk1";
  private static final String TRUST_PW = "daemon-trust-pw-3mf7";
  private static final String STRANGER_PW = "stranger-pw-6qa9";
  private static final String CLIENT_PW = "client-pw-4vb7";
  private static final int MAX_ATTEMPTS = 80;

  @TempDir Path dir;

  @Test
  void eachRefusalOnJdk11And21TargetsNamesTheClientCertificateEvenAsABrokenPipe() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("agent", SERVER_PW);
    Identity trusted = pki.identity("sentinel-trusted", "trusted-pw-2");
    Identity stranger = pki.identity("stranger", STRANGER_PW);
    Path clients = pki.trustStore("agent-clients", CLIENTS_PW, trusted);
    TlsTrust trust =
        new TlsTrust.Store(
            new StoreFile(pki.trustStore("daemon", TRUST_PW, server), Secret.of(TRUST_PW)));
    Optional<ClientKey> strangerKey =
        Optional.of(
            new ClientKey.Store(new StoreFile(stranger.keyStore(), Secret.of(STRANGER_PW))));
    for (Path jdk : List.of(Jdks.jdk11(), Jdks.jdk21())) {
      try (LabProcess lab = needsClientCertificate(jdk, server, clients)) {
        JMXServiceURL url =
            new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + lab.jmxPort() + "/jmxrmi");
        assertRefusalsDiagnosed(jdk, url, trust, Optional.empty(), "has none to send", BAD);
        assertRefusalsDiagnosed(
            jdk,
            url,
            trust,
            strangerKey,
            "issued by CN=sentinel-trusted and the daemon sent none: the one from key store "
                + stranger.keyStore()
                + " (CN=stranger, issued by CN=stranger) is not issued by one it accepts",
            BAD);
      }
    }
  }

  private static final String BROKEN_PIPE = "SocketException: Broken pipe";

  /** The socket cut as the client writes, like the broken pipe (once in 7 attempts on JDK 11). */
  private static final String RESET = "SocketException: Connection reset by peer";

  private static final String BAD = "SSLHandshakeException: Received fatal alert: bad_certificate";
  private static final String CERTIFICATE_UNKNOWN =
      "SSLHandshakeException: Received fatal alert: certificate_unknown";

  private static final String ALERT = "SSLHandshakeException: Received fatal alert: ";

  /**
   * Connects until both faces of the refusal were seen (an alert and the broken pipe), at most
   * {@link #MAX_ATTEMPTS} times; every one must be diagnosed the same way, and every alert must be
   * {@code alert}. Prints how the attempts failed.
   */
  private static void assertRefusalsDiagnosed(
      Path jdk,
      JMXServiceURL url,
      TlsTrust trust,
      Optional<ClientKey> key,
      String diagnosis,
      String alert) {
    List<String> roots = new ArrayList<>();
    for (int attempt = 0;
        attempt < MAX_ATTEMPTS
            && !(roots.contains(BROKEN_PIPE) && roots.stream().anyMatch(r -> r.startsWith(ALERT)));
        attempt++) {
      TlsJmxConnector connector = connector(url, trust, key);
      IOException failure =
          org.junit.jupiter.api.Assertions.assertThrows(IOException.class, connector::connect);
      String root = ConnectFailure.describe(failure);
      roots.add(root);
      assertThat(ConnectFailure.classify(failure))
          .as(jdk + ": " + root)
          .isEqualTo(ConnectFailure.TLS);
      assertThat(ConnectFailure.hintFor(failure))
          .as(jdk + ": " + root)
          .startsWith(" (the target requires a client certificate")
          .contains(diagnosis);
    }
    Map<String, Long> faces =
        roots.stream()
            .collect(Collectors.groupingBy(r -> r, LinkedHashMap::new, Collectors.counting()));
    System.out.printf(
        "ClientCertificateRefusalIT: %s, %s: %d attempts, every one tls: %s%n",
        jdk.getParent().getFileName(), diagnosis, roots.size(), faces);
    assertThat(roots)
        .as(jdk + ", " + roots.size() + " attempts: both the alert and the broken pipe")
        .contains(BROKEN_PIPE, alert)
        .allMatch(root -> root.equals(BROKEN_PIPE) || root.equals(RESET) || root.equals(alert));
  }

  /**
   * Certificates the agent's CA issued that the agent refuses for what they are: expired, not yet
   * valid, for servers only (extended key usage {@code serverAuth}), without {@code
   * digitalSignature} in their key usage. The daemon sends each (the JDK's key manager checks
   * neither dates nor usages), the agent refuses it after the handshake, and every attempt, alert
   * or broken pipe, counts as {@code tls} and names what is wrong with the certificate, not "not
   * trusted". A valid certificate of the same CA opens both agents: they refuse these for what they
   * are.
   */
  @Test
  void aCertificateSentAndRefusedOnJdk11And21TargetsIsNamedWithWhatIsWrongWithIt()
      throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("agent", SERVER_PW);
    Identity ca = pki.authority("sentinel-ca", "ca-pw-8r2m");
    Path clients = pki.trustStore("agent-clients", CLIENTS_PW, ca);
    TlsTrust trust =
        new TlsTrust.Store(
            new StoreFile(pki.trustStore("daemon", TRUST_PW, server), Secret.of(TRUST_PW)));
    Identity valid = pki.issued(ca, "sentinel", CLIENT_PW, "-1d", 3, "EKU=clientAuth");
    Identity expired = pki.issued(ca, "sentinel-expired", CLIENT_PW, "-3d", 1);
    Identity early = pki.issued(ca, "sentinel-early", CLIENT_PW, "+1d", 2);
    Identity serverOnly = pki.issued(ca, "sentinel-server", CLIENT_PW, "-1d", 3, "EKU=serverAuth");
    Identity noSignature = pki.issued(ca, "sentinel-nosig", CLIENT_PW, "-1d", 3, "KU=keyAgreement");
    Map<Identity, String> problems = new LinkedHashMap<>();
    problems.put(expired, "it expired at " + certificate(expired).getNotAfter().toInstant());
    problems.put(early, "it is not valid before " + certificate(early).getNotBefore().toInstant());
    problems.put(serverOnly, "its extended key usage (serverAuth) does not allow TLS client");
    problems.put(noSignature, "its key usage (keyAgreement) lacks digitalSignature");
    for (Path jdk : List.of(Jdks.jdk11(), Jdks.jdk21())) {
      try (LabProcess lab = needsClientCertificate(jdk, server, clients)) {
        JMXServiceURL url =
            new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + lab.jmxPort() + "/jmxrmi");
        try (JMXConnector connected = connector(url, trust, Optional.of(key(valid))).connect()) {
          assertThat(connected.getMBeanServerConnection().getMBeanCount())
              .as(jdk + ": a valid certificate of the same CA gets in")
              .isPositive();
        }
        for (Map.Entry<Identity, String> refused : problems.entrySet()) {
          Identity client = refused.getKey();
          assertRefusalsDiagnosed(
              jdk,
              url,
              trust,
              Optional.of(key(client)),
              "refused the one sent ("
                  + certificate(client).getSubjectX500Principal()
                  + ", issued by CN=sentinel-ca, from key store "
                  + client.keyStore()
                  + "): "
                  + refused.getValue(),
              CERTIFICATE_UNKNOWN);
        }
      }
    }
  }

  /**
   * A daemon whose key store files hold an expired certificate of the agents' CA, or a valid one
   * whose intermediate CA expired (sent in its chain; the agents trust only the root), against a
   * JDK 11 and a JDK 21 agent: every refusal counts as {@code tls} (none as {@code error}) and the
   * target's last error names the expired certificate, not the agent's trust store; once each file
   * is replaced by a renewed certificate (no reload, no signal: the key store is read again at each
   * attempt) the targets come up within the backoff's cap.
   */
  @Test
  void anExpiredKeyStoreCertificateIsNamedAndARenewedFileOpensTheTargets() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("agent", SERVER_PW);
    Identity ca = pki.authority("sentinel-ca", "ca-pw-8r2m");
    Path clients = pki.trustStore("agent-clients", CLIENTS_PW, ca);
    Path daemonTrust = pki.trustStore("daemon", TRUST_PW, server);
    Identity expired = pki.issued(ca, "sentinel-2025", CLIENT_PW, "-3d", 1);
    Identity renewed = pki.issued(ca, "sentinel-2026", CLIENT_PW, "-1d", 3, "EKU=clientAuth");
    Identity issuing = pki.issued(ca, "sentinel-issuing-2024", CLIENT_PW, "-3d", 1, "bc:c");
    Identity chained =
        pki.issued(issuing, "sentinel-chained", CLIENT_PW, "-1d", 3, "EKU=clientAuth");
    Map<String, Path> keyStores = new LinkedHashMap<>();
    Map<String, String> diagnoses = new LinkedHashMap<>();
    Map<String, String> warnings = new LinkedHashMap<>();
    for (String jdk : List.of("jdk11", "jdk21")) {
      Path own = Files.copy(expired.keyStore(), dir.resolve(jdk + "-client.p12"));
      keyStores.put(jdk, own);
      diagnoses.put(
          jdk,
          "refused the one sent (CN=sentinel-2025, issued by CN=sentinel-ca, from key store "
              + own
              + "): it expired at "
              + certificate(expired).getNotAfter().toInstant()
              + " (notAfter); give the daemon a valid one in key store");
      warnings.put(jdk, "will be refused by its agent: it expired at");
      Path chain = Files.copy(chained.keyStore(), dir.resolve(jdk + "-chain-client.p12"));
      keyStores.put(jdk + "-chain", chain);
      diagnoses.put(
          jdk + "-chain",
          "refused the one sent (CN=sentinel-chained, issued by CN=sentinel-issuing-2024, from key"
              + " store "
              + chain
              + "): its chain's CA certificate CN=sentinel-issuing-2024 (issued by CN=sentinel-ca)"
              + " expired at "
              + certificate(issuing).getNotAfter().toInstant()
              + " (notAfter): an agent that trusts only a CA above it refuses the chain");
      warnings.put(
          jdk + "-chain",
          "may be refused by its agent: its chain's CA certificate CN=sentinel-issuing-2024");
    }
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    List<Logger> loggers =
        List.of(
            (Logger) LoggerFactory.getLogger("io.jvmsentinel.daemon.target.TargetSession"),
            (Logger)
                LoggerFactory.getLogger("io.jvmsentinel.daemon.runtime.ClientCertificateWarnings"));
    loggers.forEach(logger -> logger.addAppender(logged));
    try (LabProcess lab11 = needsClientCertificate(Jdks.jdk11(), server, clients);
        LabProcess lab21 = needsClientCertificate(Jdks.jdk21(), server, clients);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                "jfr:\n  enabled: false\ntargets:\n"
                    + keyStores.entrySet().stream()
                        .map(
                            store ->
                                target(
                                    store.getKey(),
                                    (store.getKey().startsWith("jdk11") ? lab11 : lab21).jmxPort(),
                                    daemonTrust,
                                    store.getValue()))
                        .collect(Collectors.joining()),
                Map.of("TRUST_PW", TRUST_PW, "CLIENT_PW", CLIENT_PW))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                for (String target : keyStores.keySet()) {
                  assertThat(failures(scrape, target, "tls")).as(target).isGreaterThanOrEqualTo(8);
                  assertThat(failures(scrape, target, "error")).as(target).isZero();
                }
                String targets = http.get("/api/v1/targets").body();
                assertThat(targets).contains(diagnoses.values());
              });
      PrometheusText before = http.scrape();
      for (String target : keyStores.keySet()) {
        List<String> lines =
            logged.list.stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.startsWith("target " + target + ": "))
                .toList();
        assertThat(lines)
            .as("warned of at start-up")
            .anyMatch(line -> line.contains(warnings.get(target)));
        long refusals =
            lines.stream().filter(line -> line.contains("refused the one sent")).count();
        long others =
            lines.stream().filter(line -> line.contains("retrying in")).count() - refusals;
        assertThat(refusals)
            .as(
                target
                    + ": one refusal is logged once, alert or broken pipe, unless another failure"
                    + " came between: "
                    + lines)
            .isLessThanOrEqualTo(1 + others);
      }

      for (Path keyStore : keyStores.values()) {
        Path next = Files.copy(renewed.keyStore(), keyStore.resolveSibling("next.p12"));
        Files.move(next, keyStore, StandardCopyOption.ATOMIC_MOVE);
      }
      long renewedAt = System.nanoTime();
      Map<String, Long> upAfterMillis = new LinkedHashMap<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                for (String target : keyStores.keySet()) {
                  if (scrape.value("jvm_sentinel_target_up", Map.of("target", target)).orElse(0.0)
                      == 1.0) {
                    upAfterMillis.putIfAbsent(
                        target, Duration.ofNanos(System.nanoTime() - renewedAt).toMillis());
                  }
                }
                assertThat(upAfterMillis).containsOnlyKeys(keyStores.keySet());
              });
      PrometheusText after = http.scrape();
      for (String target : keyStores.keySet()) {
        assertThat(failures(after, target, "error")).as(target).isZero();
        System.out.printf(
            "ClientCertificateRefusalIT: %s with an expired certificate (or CA certificate): %.0f"
                + " attempts failed, all"
                + " tls (%.0f before the renewal); up %d ms after the key store file was"
                + " replaced%n",
            target,
            failures(after, target, "tls"),
            failures(before, target, "tls"),
            upAfterMillis.get(target));
      }
    } finally {
      loggers.forEach(logger -> logger.detachAppender(logged));
    }
  }

  private static String target(String name, int port, Path trust, Path keyStore) {
    return """
          - name: %s
            jmx: 127.0.0.1:%d
            tls:
              trustStore: %s
              trustStorePasswordEnv: TRUST_PW
              keyStore: %s
              keyStorePasswordEnv: CLIENT_PW
        """
        .formatted(name, port, trust, keyStore);
  }

  private static ClientKey key(Identity client) {
    return new ClientKey.Store(new StoreFile(client.keyStore(), Secret.of(CLIENT_PW)));
  }

  private static X509Certificate certificate(Identity identity) throws Exception {
    try (InputStream in = Files.newInputStream(identity.certificate())) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  /**
   * The daemon's own sessions against a JDK 11 target, reconnecting every 300 ms to 2 s: after a
   * dozen refusals (a broken pipe among them with all but certainty) none is counted as {@code
   * error}, and the target's last error names the missing client certificate.
   */
  @Test
  void aDaemonCountsEveryRefusalAsTls() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("agent", SERVER_PW);
    Identity trusted = pki.identity("sentinel-trusted", "trusted-pw-2");
    Path clients = pki.trustStore("agent-clients", CLIENTS_PW, trusted);
    Path daemonTrust = pki.trustStore("daemon", TRUST_PW, server);
    try (LabProcess lab = needsClientCertificate(Jdks.jdk11(), server, clients);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                """
                jfr:
                  enabled: false
                targets:
                  - name: refusing
                    jmx: 127.0.0.1:%d
                    tls:
                      trustStore: %s
                      trustStorePasswordEnv: TRUST_PW
                """
                    .formatted(lab.jmxPort(), daemonTrust),
                Map.of("TRUST_PW", TRUST_PW))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                assertThat(failures(scrape, "tls")).isGreaterThanOrEqualTo(12.0);
                assertThat(failures(scrape, "error")).isZero();
              });
      assertThat(http.get("/api/v1/targets").body())
          .contains("(the target requires a client certificate and the daemon has none to send");
    }
  }

  private static TlsJmxConnector connector(
      JMXServiceURL url, TlsTrust trust, Optional<ClientKey> key) {
    return new TlsJmxConnector(
        "refusing",
        url,
        new TargetTlsConfig(trust, key, true),
        Credentials.NONE,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5));
  }

  private static double failures(PrometheusText scrape, String reason) {
    return failures(scrape, "refusing", reason);
  }

  private static double failures(PrometheusText scrape, String target, String reason) {
    return scrape
        .value("jvm_sentinel_connection_failures_total", Map.of("target", target, "reason", reason))
        .orElse(0.0);
  }

  private static LabProcess needsClientCertificate(Path jdk, Identity server, Path clients)
      throws Exception {
    return ClientCertificateAgents.start(jdk, server, clients, CLIENTS_PW, Optional.empty());
  }
}
