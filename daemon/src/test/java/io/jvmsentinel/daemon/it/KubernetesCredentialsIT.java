package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.discovery.MockApiServer;
import io.jvmsentinel.daemon.it.ClientCertificateAgents.Login;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.CapturingJmxServer;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import io.jvmsentinel.daemon.tls.PemEncodings;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The attack of issue 25, with the daemon wired as in production: pods of fabric8's mock API server
 * annotate themselves for scraping, each pointing at a fake JMX server of this test that accepts
 * any login and records the credentials it was sent. A pod off the allow-list gets nothing (its
 * server records no login at all), one annotated {@code jmx-auth: none} logs in without
 * credentials, each allowed namespace gets its own Secret's password (over TLS pinned to the
 * Secret's {@code ca.crt} where it has one), and a server without the pinned certificate gets no
 * login: the handshake fails before anything is sent. Then the Secret's client certificate ({@code
 * tls.crt}, {@code tls.key}) against real JDK agents that require one.
 */
class KubernetesCredentialsIT {
  private static final Duration UP = Duration.ofSeconds(30);
  private static final String SHOP_PW = "shop-pw-4kd9";
  private static final String PAY_PW = "pay-pw-7qw2";
  private static final String VAULT_PW = "vault-pw-2mx8";
  private static final String LAB_PW = "lab-jmx-pw-8rv3";
  private static final String LAB_KEY_PW = "lab-key-pw-5tn1";
  private static final String LAB_TRUST_PW = "lab-trust-pw-2cz6";
  private static final String CLIENT_KEY_PW = "client-key-pw-9dk4";

  @TempDir Path dir;

  @Test
  void credentialsReachOnlyAllowListedPodsTheirOwnNamespacesAndPinnedCertificates()
      throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity shopKey = pki.identity("shop-jmx", "shop-key-pw-1");
    Identity impostorKey = pki.identity("impostor-jmx", "impostor-key-pw-1");
    try (MockApiServer api = new MockApiServer();
        CapturingJmxServer thief = CapturingJmxServer.plain(LoopbackPorts.freePort());
        CapturingJmxServer open = CapturingJmxServer.plain(LoopbackPorts.freePort());
        CapturingJmxServer shop = CapturingJmxServer.tls(LoopbackPorts.freePort(), shopKey);
        CapturingJmxServer pay = CapturingJmxServer.plain(LoopbackPorts.freePort());
        CapturingJmxServer impostor =
            CapturingJmxServer.tls(LoopbackPorts.freePort(), impostorKey);
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                discovery(
                    api,
                    """
                          - namespaces: [shop, pay]
                            secret: jvm-sentinel-jmx
                          - namespaces: [vault]
                            username: vault-user
                            passwordEnv: VAULT_PW
                            pinnedSha256: ["%s"]
                    """
                        .formatted(sha256(shopKey.certificate()))),
                Map.of("VAULT_PW", VAULT_PW))) {
      secret(api, "shop", "monitor", SHOP_PW, Optional.of(shopKey.certificate()));
      secret(api, "pay", "monitor", PAY_PW, Optional.empty());
      // The thief's namespace has a Secret too: the daemon never reads it.
      secret(api, "tenant", "monitor", "tenant-pw-0", Optional.empty());
      create(api, pod("tenant", "thief", thief.port(), false));
      create(api, pod("tenant", "open", open.port(), true));
      create(api, pod("shop", "orders", shop.port(), false));
      create(api, pod("pay", "billing", pay.port(), false));
      // Allowed, but the server holds another key than the pinned one.
      create(api, pod("vault", "safe", impostor.port(), false));

      // A login is the moment credentials are sent: what each server recorded is the proof. (The
      // daemon's process-wide deserialization filter also guards these in-process servers, so the
      // sessions stop after the login; a real target is polled as KubernetesDiscoveryIT shows.)
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(UP)
          .untilAsserted(
              () -> {
                assertThat(shop.logins()).isNotEmpty();
                assertThat(pay.logins()).isNotEmpty();
                assertThat(open.logins()).isNotEmpty();
                PrometheusText scrape = http.scrape();
                assertThat(
                        scrape
                            .value(
                                "jvm_sentinel_connection_failures_total",
                                Map.of("target", "vault.safe", "reason", "tls"))
                            .orElse(0.0))
                    .isGreaterThanOrEqualTo(1.0);
              });

      assertThat(thief.logins()).as("a pod off the allow-list: not even a login").isEmpty();
      assertThat(daemon.targets()).noneMatch(t -> t.name().equals("tenant.thief"));
      assertThat(open.logins()).isNotEmpty().containsOnly(Optional.empty());
      assertThat(shop.logins()).isNotEmpty().containsOnly(Optional.of(List.of("monitor", SHOP_PW)));
      assertThat(pay.logins()).isNotEmpty().containsOnly(Optional.of(List.of("monitor", PAY_PW)));
      assertThat(impostor.logins()).as("the pin does not match: nothing sent").isEmpty();
    }
  }

  /**
   * Real JMX agents with {@code ssl.need.client.auth=true}, a password and TLS on the registry, on
   * JDK 11 and JDK 21: each namespace's Secret gives the daemon a client certificate in the
   * encodings cert-manager and OpenSSL write (PKCS#1 RSA, SEC1 EC after its EC PARAMETERS), and the
   * daemon reads the agent through it; a namespace whose Secret has the CA but no client
   * certificate is refused by the agent, and its target is down with reason {@code tls}.
   */
  @Test
  void aSecretsClientCertificateOpensAnAgentThatNeedsOneAndNoneIsRefused() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server11 = pki.identity("books-jmx", LAB_KEY_PW);
    Identity server21 = pki.identity("console-jmx", LAB_KEY_PW);
    Identity rsaClient = pki.identity("sentinel-rsa", CLIENT_KEY_PW, "RSA");
    Identity ecClient = pki.identity("sentinel-ec", CLIENT_KEY_PW, "EC");
    Optional<Login> login = Optional.of(Login.of(dir, "monitor", LAB_PW));
    try (LabProcess lab11 =
            ClientCertificateAgents.start(
                Jdks.jdk11(),
                server11,
                pki.trustStore("books-clients", LAB_TRUST_PW, rsaClient),
                LAB_TRUST_PW,
                login);
        LabProcess lab21 =
            ClientCertificateAgents.start(
                Jdks.jdk21(),
                server21,
                pki.trustStore("console-clients", LAB_TRUST_PW, ecClient),
                LAB_TRUST_PW,
                login);
        MockApiServer api = new MockApiServer();
        SentinelDaemon daemon =
            Daemons.start(
                dir,
                discovery(
                    api,
                    """
                          - namespaces: [ledger, ops, audit]
                            secret: jvm-sentinel-jmx
                    """))) {
      PrivateKey rsaKey = TestCertificates.privateKey(rsaClient);
      PrivateKey ecKey = TestCertificates.privateKey(ecClient);
      // cert-manager's default for RSA: PKCS#1.
      String pkcs1 = TestCertificates.pem("RSA PRIVATE KEY", PemEncodings.pkcs1(rsaKey));
      // openssl ecparam -genkey: the curve, then the SEC1 key.
      String sec1 =
          TestCertificates.pem("EC PARAMETERS", PemEncodings.curveOid(ecKey))
              + TestCertificates.pem("EC PRIVATE KEY", PemEncodings.sec1(ecKey, true));
      tlsSecret(api, "ledger", server11, Optional.of(rsaClient.certificate()), pkcs1);
      tlsSecret(api, "ops", server21, Optional.of(ecClient.certificate()), sec1);
      tlsSecret(api, "audit", server11, Optional.empty(), "");
      create(api, pod("ledger", "books", lab11.jmxPort(), false));
      create(api, pod("ops", "console", lab21.jmxPort(), false));
      create(api, pod("audit", "trail", lab11.jmxPort(), false));

      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                for (String up : List.of("ledger.books", "ops.console")) {
                  assertThat(scrape.value("jvm_sentinel_target_up", Map.of("target", up)))
                      .as(up)
                      .contains(1.0);
                  assertThat(scrape.value("jvm_threads_live_threads", Map.of("target", up)))
                      .as(up)
                      .hasValueSatisfying(threads -> assertThat(threads).isPositive());
                }
                assertThat(
                        scrape
                            .value(
                                "jvm_sentinel_connection_failures_total",
                                Map.of("target", "audit.trail", "reason", "tls"))
                            .orElse(0.0))
                    .isGreaterThanOrEqualTo(1.0);
              });
      PrometheusText scrape = http.scrape();
      assertThat(scrape.value("jvm_sentinel_target_up", Map.of("target", "audit.trail")))
          .contains(0.0);
      // The agent's refusal, with what to configure, whether its alert arrived or (TLS 1.3) the
      // connection broke before it did (ClientCertificateRefusalIT).
      assertThat(http.get("/api/v1/targets").body())
          .contains(
              "(the target requires a client certificate and the daemon has none to send: give the"
                  + " target tls.keyStore (targets:), or tls.crt and tls.key in its Secret"
                  + " (discovered pods)");
      assertThat(
              scrape
                  .value(
                      "jvm_sentinel_connection_failures_total",
                      Map.of("target", "audit.trail", "reason", "error"))
                  .orElse(0.0))
          .isZero();
      String targets = http.get("/api/v1/targets").body();
      assertThat(targets)
          .doesNotContain(LAB_PW)
          .doesNotContain(pkcs1.lines().skip(1).findFirst().orElseThrow())
          .doesNotContain(sec1.lines().skip(4).findFirst().orElseThrow());
    }
  }

  /**
   * Renewal as cert-manager does it: the namespace's Secret gets a new {@code tls.crt} and {@code
   * tls.key}, and the JDK 21 agent trusts only the new certificate. With the old one the target is
   * down and the daemon says why (the agent accepts another issuer); once the Secret is replaced,
   * the daemon reads it within {@code secretRefresh} (1 s here) and the target comes up with the
   * new certificate.
   */
  @Test
  void aRotatedClientCertificateIsReadWithinTheRefreshAndOpensTheAgentThatTrustsOnlyIt()
      throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("ledger-jmx", LAB_KEY_PW);
    Identity oldClient = pki.identity("sentinel-2026-10", CLIENT_KEY_PW);
    Identity newClient = pki.identity("sentinel-2026-11", CLIENT_KEY_PW);
    Optional<Login> login = Optional.of(Login.of(dir, "monitor", LAB_PW));
    Duration refresh = Duration.ofSeconds(1);
    try (LabProcess lab =
            ClientCertificateAgents.start(
                Jdks.jdk21(),
                server,
                pki.trustStore("ledger-clients", LAB_TRUST_PW, newClient),
                LAB_TRUST_PW,
                login);
        MockApiServer api = new MockApiServer();
        SentinelDaemon daemon = Daemons.start(dir, ledgerDiscovery(api, refresh))) {
      ledgerBooks(api, server, oldClient, lab.jmxPort());

      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(UP)
          .untilAsserted(
              () ->
                  assertThat(http.get("/api/v1/targets").body())
                      .contains(
                          "the target requires a client certificate issued by CN=sentinel-2026-11"
                              + " and the daemon sent none: the one from tls.crt and tls.key of"
                              + " the pod's Secret (CN=sentinel-2026-10, issued by"
                              + " CN=sentinel-2026-10) is not issued by one it accepts"));
      assertThat(http.scrape().value("jvm_sentinel_target_up", Map.of("target", "ledger.books")))
          .contains(0.0);

      // cert-manager renews: the same Secret, a new certificate and key.
      renew(api, server, newClient);
      long rotated = System.nanoTime();

      // Read again within the refresh; then the target restarts and connects at once (2 s
      // connect and call timeouts, a first poll): up well before the default 60 s refresh.
      await()
          .atMost(refresh.plus(Duration.ofSeconds(15)))
          .untilAsserted(
              () -> {
                PrometheusText scrape = http.scrape();
                assertThat(scrape.value("jvm_sentinel_target_up", Map.of("target", "ledger.books")))
                    .contains(1.0);
                assertThat(
                        scrape.value("jvm_threads_live_threads", Map.of("target", "ledger.books")))
                    .hasValueSatisfying(threads -> assertThat(threads).isPositive());
              });
      System.out.printf(
          "KubernetesCredentialsIT: up with the rotated certificate %d ms after the Secret"
              + " changed%n",
          Duration.ofNanos(System.nanoTime() - rotated).toMillis());
    }
  }

  /**
   * A Secret whose client certificate the agent's CA issued but which has expired, against a JDK 11
   * agent: the target is down with reason {@code tls} only, and its error names the expiry and the
   * Secret; once cert-manager's renewal replaces it the target comes up within the refresh.
   */
  @Test
  void anExpiredSecretCertificateIsNamedAndItsRenewalOpensTheAgent() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity server = pki.identity("books-jmx", LAB_KEY_PW);
    Identity ca = pki.authority("sentinel-ca", "ca-pw-3kd8");
    Identity expired = pki.issued(ca, "sentinel-2025", CLIENT_KEY_PW, "-3d", 1);
    Identity renewed = pki.issued(ca, "sentinel-2026", CLIENT_KEY_PW, "-1d", 3, "EKU=clientAuth");
    Optional<Login> login = Optional.of(Login.of(dir, "monitor", LAB_PW));
    Duration refresh = Duration.ofSeconds(1);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger secrets =
        (Logger) LoggerFactory.getLogger("io.jvmsentinel.daemon.discovery.NamespaceSecrets");
    secrets.addAppender(logged);
    try (LabProcess lab =
            ClientCertificateAgents.start(
                Jdks.jdk11(),
                server,
                pki.trustStore("books-clients", LAB_TRUST_PW, ca),
                LAB_TRUST_PW,
                login);
        MockApiServer api = new MockApiServer();
        SentinelDaemon daemon = Daemons.start(dir, ledgerDiscovery(api, refresh))) {
      ledgerBooks(api, server, expired, lab.jmxPort());

      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      String notAfter;
      try (InputStream in = Files.newInputStream(expired.certificate())) {
        notAfter =
            ((java.security.cert.X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(in))
                .getNotAfter()
                .toInstant()
                .toString();
      }
      await()
          .atMost(UP)
          .untilAsserted(
              () -> {
                assertThat(failures(http.scrape(), "tls")).isGreaterThanOrEqualTo(6.0);
                assertThat(http.get("/api/v1/targets").body())
                    .contains(
                        "the target requires a client certificate and refused the one sent"
                            + " (CN=sentinel-2025, issued by CN=sentinel-ca, from tls.crt and"
                            + " tls.key of the pod's Secret): it expired at "
                            + notAfter
                            + " (notAfter); give the daemon a valid one in tls.crt and tls.key"
                            + " of the pod's Secret");
              });
      double refusals = failures(http.scrape(), "tls");
      assertThat(logged.list)
          .map(ILoggingEvent::getFormattedMessage)
          .as("said once, when the Secret was read")
          .containsOnlyOnce(
              "kubernetes discovery: the client certificate in 'tls.crt' of Secret"
                  + " ledger/jvm-sentinel-jmx (CN=sentinel-2025, issued by CN=sentinel-ca) will be"
                  + " refused by the agents: it expired at "
                  + notAfter
                  + " (notAfter)");

      renew(api, server, renewed);
      long rotated = System.nanoTime();
      await()
          .atMost(refresh.plus(Duration.ofSeconds(20)))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () ->
                  assertThat(
                          http.scrape()
                              .value("jvm_sentinel_target_up", Map.of("target", "ledger.books")))
                      .contains(1.0));
      long upAfter = Duration.ofNanos(System.nanoTime() - rotated).toMillis();
      assertThat(failures(http.scrape(), "error")).isZero();
      System.out.printf(
          "KubernetesCredentialsIT: jdk11, an expired Secret certificate: %.0f refusals, all tls;"
              + " up %d ms after the Secret was renewed%n",
          refusals, upAfter);
    } finally {
      secrets.detachAppender(logged);
    }
  }

  private static double failures(PrometheusText scrape, String reason) {
    return scrape
        .value(
            "jvm_sentinel_connection_failures_total",
            Map.of("target", "ledger.books", "reason", reason))
        .orElse(0.0);
  }

  /** Discovery of namespace {@code ledger} with its Secret, read again every {@code refresh}. */
  private static String ledgerDiscovery(MockApiServer api, Duration refresh) {
    return discovery(api, "      - namespaces: [ledger]\n" + "        secret: jvm-sentinel-jmx\n")
        .replace(
            "    pollInterval: 1s\n",
            "    pollInterval: 1s\n    secretRefresh: " + refresh.toSeconds() + "s\n");
  }

  /** Pod {@code ledger.books} on {@code port}, its namespace's Secret with {@code client}. */
  private static void ledgerBooks(MockApiServer api, Identity server, Identity client, int port)
      throws Exception {
    tlsSecret(
        api,
        "ledger",
        server,
        Optional.of(client.certificate()),
        TestCertificates.privateKeyPem(client));
    create(api, pod("ledger", "books", port, false));
  }

  /**
   * Renewal as cert-manager does it: the same Secret of {@code ledger}, a new certificate and key.
   */
  private static void renew(MockApiServer api, Identity server, Identity client) throws Exception {
    api.client()
        .resource(
            MockApiServer.secret(
                "ledger",
                "jvm-sentinel-jmx",
                Map.of(
                    "username", "monitor",
                    "password", LAB_PW,
                    "ca.crt", Files.readString(server.certificate()),
                    "tls.crt", Files.readString(client.certificate()),
                    "tls.key", TestCertificates.privateKeyPem(client))))
        .update();
  }

  /** The namespace's Secret: the lab's password, its server certificate as ca.crt, and a client. */
  private static void tlsSecret(
      MockApiServer api, String namespace, Identity server, Optional<Path> client, String key)
      throws Exception {
    Map<String, String> values = new java.util.HashMap<>();
    values.put("username", "monitor");
    values.put("password", LAB_PW);
    values.put("ca.crt", Files.readString(server.certificate()));
    if (client.isPresent()) {
      values.put("tls.crt", Files.readString(client.get()));
      values.put("tls.key", key);
    }
    api.client().resource(MockApiServer.secret(namespace, "jvm-sentinel-jmx", values)).create();
  }

  /** Discovery from the mock API server every second, with these {@code credentials} entries. */
  private static String discovery(MockApiServer api, String credentials) {
    return """
        jfr:
          enabled: false
        discovery:
          kubernetes:
            apiServer: %s
            pollInterval: 1s
            credentials:
        """
            .formatted(api.url())
        + credentials;
  }

  private static Pod pod(String namespace, String name, int port, boolean noAuth) {
    PodBuilder pod =
        new PodBuilder(MockApiServer.annotatedPod(namespace, name, "127.0.0.1", "node-a", port));
    if (noAuth) {
      pod.editMetadata().addToAnnotations("jvm-sentinel.io/jmx-auth", "none").endMetadata();
    }
    return pod.build();
  }

  private static void create(MockApiServer api, Pod pod) {
    api.client().resource(pod).create();
  }

  private static void secret(
      MockApiServer api, String namespace, String username, String password, Optional<Path> ca)
      throws Exception {
    Map<String, String> values = new java.util.HashMap<>();
    values.put("username", username);
    values.put("password", password);
    if (ca.isPresent()) {
      values.put("ca.crt", Files.readString(ca.get()));
    }
    api.client().resource(MockApiServer.secret(namespace, "jvm-sentinel-jmx", values)).create();
  }

  /** As {@code openssl x509 -noout -fingerprint -sha256} prints it. */
  private static String sha256(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(in).getEncoded();
      return HexFormat.ofDelimiter(":")
          .withUpperCase()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(der));
    }
  }
}
