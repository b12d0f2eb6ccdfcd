package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.discovery.MockApiServer;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.CapturingJmxServer;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack of issue 25, with the daemon wired as in production: pods of fabric8's mock API server
 * annotate themselves for scraping, each pointing at a fake JMX server of this test that accepts
 * any login and records the credentials it was sent. A pod off the allow-list gets nothing (its
 * server records no login at all), one annotated {@code jmx-auth: none} logs in without
 * credentials, each allowed namespace gets its own Secret's password (over TLS pinned to the
 * Secret's {@code ca.crt} where it has one), and a server without the pinned certificate gets no
 * login: the handshake fails before anything is sent.
 */
class KubernetesCredentialsIT {
  private static final Duration UP = Duration.ofSeconds(30);
  private static final String SHOP_PW = "shop-pw-4kd9";
  private static final String PAY_PW = "pay-pw-7qw2";
  private static final String VAULT_PW = "vault-pw-2mx8";

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
                """
                jfr:
                  enabled: false
                discovery:
                  kubernetes:
                    apiServer: %s
                    pollInterval: 1s
                    credentials:
                      - namespaces: [shop, pay]
                        secret: jvm-sentinel-jmx
                      - namespaces: [vault]
                        username: vault-user
                        passwordEnv: VAULT_PW
                        pinnedSha256: ["%s"]
                """
                    .formatted(api.url(), sha256(shopKey.certificate())),
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
