package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import io.jvmsentinel.daemon.testing.SentinelJar;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMX authentication and TLS against real target JVMs configured with {@code
 * com.sun.management.jmxremote.authenticate/ssl/registry.ssl/need.client.auth}, watched by one
 * forked daemon: two TLS targets with different CAs, each with its own stores, both up; an
 * untrusted certificate and a wrong password fail with the target's name, back off, and no secret
 * reaches the log, the API or {@code check-config}.
 */
class JmxSecurityIT {
  private static final String JMX_PASSWORD = "jmx-pw-Q7x2";
  private static final String WRONG_PASSWORD = "wrong-pw-K9m4";
  private static final String SERVER_A_PW = "srv-a-pw-3hd8";
  private static final String SERVER_B_PW = "srv-b-pw-8fj2";
  private static final String CLIENT_PW = "client-pw-5kq1";
  private static final String TRUST_A_PW = "trust-a-pw-2mz7";
  private static final String TRUST_B_PW = "trust-b-pw-6wq3";
  private static final String TARGET_TRUST_PW = "tgt-trust-pw-1pl9";
  private static final List<String> SECRETS =
      List.of(
          JMX_PASSWORD,
          WRONG_PASSWORD,
          SERVER_A_PW,
          SERVER_B_PW,
          CLIENT_PW,
          TRUST_A_PW,
          TRUST_B_PW,
          TARGET_TRUST_PW);

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final List<LabProcess> labs = new ArrayList<>();
  private Process daemon;

  @AfterEach
  void stop() throws Exception {
    if (daemon != null) {
      daemon.destroy();
      daemon.waitFor(20, TimeUnit.SECONDS);
    }
    labs.forEach(LabProcess::close);
  }

  @Test
  void authenticatedAndTlsTargetsWithTheirOwnStoresInOneDaemon() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity serverA = pki.identity("target-a", SERVER_A_PW);
    Identity serverB = pki.identity("target-b", SERVER_B_PW);
    Identity client = pki.identity("sentinel", CLIENT_PW);
    Path trustA = pki.trustStore("sentinel-a", TRUST_A_PW, serverA);
    Path trustB = pki.trustStore("sentinel-b", TRUST_B_PW, serverB);
    Path targetTrust = pki.trustStore("target-a-clients", TARGET_TRUST_PW, client);
    Path passwordFile = dir.resolve("jmxremote.password");
    Files.writeString(passwordFile, "monitor " + JMX_PASSWORD + "\n");
    // The JDK refuses a password file that others can read.
    Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
    Path accessFile = dir.resolve("jmxremote.access");
    // readwrite: JFR streaming invokes FlightRecorderMXBean operations (docs/operations.md).
    Files.writeString(accessFile, "monitor readwrite\n");
    List<String> auth =
        List.of(
            "-Dcom.sun.management.jmxremote.authenticate=true",
            "-Dcom.sun.management.jmxremote.password.file=" + passwordFile,
            "-Dcom.sun.management.jmxremote.access.file=" + accessFile);

    // a: TLS on registry and connector, client certificate required, and a password.
    List<String> a = new ArrayList<>(tls(serverA, SERVER_A_PW));
    a.addAll(
        List.of(
            "-Dcom.sun.management.jmxremote.ssl.need.client.auth=true",
            "-Djavax.net.ssl.trustStore=" + targetTrust,
            "-Djavax.net.ssl.trustStorePassword=" + TARGET_TRUST_PW));
    a.addAll(auth);
    LabProcess labA = lab(a);
    // b: TLS on registry and connector with another CA; no client certificate, no password.
    LabProcess labB = lab(tls(serverB, SERVER_B_PW));
    // c: plain RMI with a password.
    LabProcess labC = lab(auth);

    Path config = dir.resolve("sentinel.yaml");
    int port = LoopbackPorts.freePort();
    Files.writeString(
        config,
        """
        http:
          listen: 127.0.0.1:%d
        connection:
          connectTimeout: 3s
          callTimeout: 3s
          reconnectInitialDelay: 300ms
          reconnectMaxDelay: 2s
        targets:
          - name: a
            jmx: %s
            username: monitor
            passwordEnv: JMX_PW
            tls:
              trustStore: %s
              trustStorePasswordEnv: TRUST_A_PW
              keyStore: %s
              keyStorePasswordEnv: CLIENT_PW
          - name: b
            jmx: %s
            tls:
              trustStore: %s
              trustStorePasswordEnv: TRUST_B_PW
          - name: b-untrusted
            jmx: %s
            tls:
              trustStore: %s
              trustStorePasswordEnv: TRUST_A_PW
          - name: c
            jmx: %s
            username: monitor
            passwordEnv: JMX_PW
          - name: c-wrong
            jmx: %s
            username: monitor
            passwordEnv: WRONG_PW
          - name: c-tls
            jmx: %s
            username: monitor
            passwordEnv: JMX_PW
            tls:
              trustStore: %s
              trustStorePasswordEnv: TRUST_A_PW
              registry: false
        """
            .formatted(
                port,
                labA.jmxHostPort(),
                trustA,
                client.keyStore(),
                labB.jmxHostPort(),
                trustB,
                labB.jmxHostPort(),
                trustA,
                labC.jmxHostPort(),
                labC.jmxHostPort(),
                labC.jmxHostPort(),
                trustA));
    Map<String, String> env =
        Map.of(
            "JMX_PW", JMX_PASSWORD,
            "WRONG_PW", WRONG_PASSWORD,
            "TRUST_A_PW", TRUST_A_PW,
            "TRUST_B_PW", TRUST_B_PW,
            "CLIENT_PW", CLIENT_PW);

    SentinelJar.Result check =
        SentinelJar.run(Jdks.jdk17(), env, dir, "check-config", config.toString());
    assertThat(check.exitCode()).as(check.stdout() + check.stderr()).isZero();
    assertNoSecret(check.stdout() + check.stderr());

    Path log = dir.resolve("daemon.log");
    long started = System.nanoTime();
    daemon =
        SentinelJar.command(Jdks.jdk17(), env, "run", "--config", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    DaemonHttp http = new DaemonHttp(port);
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              PrometheusText scrape = http.scrape();
              for (String up : List.of("a", "b", "c")) {
                assertThat(scrape.value("jvm_sentinel_target_up", Map.of("target", up)))
                    .as(up)
                    .contains(1.0);
              }
              assertThat(failures(scrape, "b-untrusted", "tls")).isGreaterThanOrEqualTo(2);
              assertThat(failures(scrape, "c-wrong", "auth")).isGreaterThanOrEqualTo(2);
              assertThat(failures(scrape, "c-tls", "error")).isGreaterThanOrEqualTo(1);
            });
    System.out.printf(
        "a, b, c up and the failures counted %d ms after the daemon started%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

    PrometheusText scrape = http.scrape();
    for (String down : List.of("b-untrusted", "c-wrong", "c-tls")) {
      assertThat(scrape.value("jvm_sentinel_target_up", Map.of("target", down)))
          .as(down)
          .contains(0.0);
    }
    // Real data through the TLS connections, not just a handshake.
    assertThat(scrape.value("jvm_threads_live_threads", Map.of("target", "a")))
        .hasValueSatisfying(v -> assertThat(v).isPositive());
    assertThat(scrape.value("jvm_threads_live_threads", Map.of("target", "b")))
        .hasValueSatisfying(v -> assertThat(v).isPositive());

    // The JFR stream runs over the same TLS connection (and its client certificate).
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              JsonNode targets = JSON.readTree(http.get("/api/v1/targets").body()).path("targets");
              for (JsonNode target : targets) {
                if (List.of("a", "b").contains(target.path("target").asText())) {
                  assertThat(target.path("jfr").asText())
                      .as(target.path("target").asText())
                      .isEqualTo("streaming");
                }
              }
            });

    String api = http.get("/api/v1/targets").body();
    assertThat(api).contains("certification path").contains("Invalid username or password");
    // The target's own -Djavax.net.ssl.keyStorePassword=... is masked in inputArguments.
    assertThat(api).contains("-Djavax.net.ssl.keyStorePassword=****");
    assertThat(api).contains("does not use TLS");
    assertNoSecret(api);

    String output = Files.readString(log);
    assertThat(output)
        .containsPattern("target b-untrusted: connect to .* failed: .*certification path.*tls")
        .containsPattern("target c-wrong: connect to .* failed: .*Invalid username or password")
        .containsPattern("target c-tls: connect to .* failed: .*c-tls: .*does not use TLS");
    // Backoff: the same failure is logged once, not once per attempt (a slow first attempt on a
    // loaded machine may log a timeout before it; that is another message).
    assertThat(
            output
                .lines()
                .filter(l -> l.contains("target c-wrong: connect to"))
                .filter(l -> l.contains("Invalid username or password"))
                .count())
        .isEqualTo(1);
    assertThat(failures(http.scrape(), "c-wrong", "auth")).isGreaterThanOrEqualTo(2);
    assertNoSecret(output);
    // Nothing JVM-wide: the daemon never sets javax.net.ssl.* (it would be in the log if a
    // connection needed it) and both CAs worked side by side above.
    assertThat(output).doesNotContain("javax.net.ssl");
  }

  private LabProcess lab(List<String> jvmArgs) throws Exception {
    LabProcess lab =
        LabSpec.builder("idle")
            .javaHome(Jdks.jdk17())
            .jvmArgs(jvmArgs.toArray(String[]::new))
            .build()
            .startReady(Duration.ofSeconds(60));
    labs.add(lab);
    return lab;
  }

  /** The target side of TLS: the JDK agent reads its key from javax.net.ssl.* of the target. */
  private static List<String> tls(Identity server, String password) {
    return List.of(
        "-Dcom.sun.management.jmxremote.ssl=true",
        "-Dcom.sun.management.jmxremote.registry.ssl=true",
        "-Djavax.net.ssl.keyStore=" + server.keyStore(),
        "-Djavax.net.ssl.keyStorePassword=" + password,
        "-Djavax.net.ssl.keyStoreType=PKCS12");
  }

  private static double failures(PrometheusText scrape, String target, String reason) {
    return scrape
        .value("jvm_sentinel_connection_failures_total", Map.of("target", target, "reason", reason))
        .orElse(0.0);
  }

  private static void assertNoSecret(String text) {
    for (String secret : SECRETS) {
      assertThat(text).as("a secret leaked").doesNotContain(secret);
    }
  }
}
