package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertRefusalsDiagnosed(jdk, url, trust, Optional.empty(), "has none to send");
        assertRefusalsDiagnosed(
            jdk,
            url,
            trust,
            strangerKey,
            "issued by CN=sentinel-trusted and the daemon sent none: the one from key store "
                + stranger.keyStore()
                + " (CN=stranger, issued by CN=stranger) is not issued by one it accepts");
      }
    }
  }

  /**
   * Connects until both faces of the refusal were seen (the alert and the broken pipe), at most
   * {@link #MAX_ATTEMPTS} times; every one must be diagnosed the same way.
   */
  private static void assertRefusalsDiagnosed(
      Path jdk, JMXServiceURL url, TlsTrust trust, Optional<ClientKey> key, String diagnosis) {
    List<String> roots = new ArrayList<>();
    for (int attempt = 0;
        attempt < MAX_ATTEMPTS
            && !(roots.contains("SocketException: Broken pipe")
                && roots.contains("SSLHandshakeException: Received fatal alert: bad_certificate"));
        attempt++) {
      TlsJmxConnector connector =
          new TlsJmxConnector(
              "refusing",
              url,
              new TargetTlsConfig(trust, key, true),
              Credentials.NONE,
              Duration.ofSeconds(5),
              Duration.ofSeconds(5));
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
    assertThat(roots)
        .as(jdk + ", " + roots.size() + " attempts: both the alert and the broken pipe")
        .contains(
            "SocketException: Broken pipe",
            "SSLHandshakeException: Received fatal alert: bad_certificate");
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

  private static double failures(PrometheusText scrape, String reason) {
    return scrape
        .value(
            "jvm_sentinel_connection_failures_total",
            Map.of("target", "refusing", "reason", reason))
        .orElse(0.0);
  }

  private static LabProcess needsClientCertificate(Path jdk, Identity server, Path clients)
      throws Exception {
    return ClientCertificateAgents.start(jdk, server, clients, CLIENTS_PW, Optional.empty());
  }
}
