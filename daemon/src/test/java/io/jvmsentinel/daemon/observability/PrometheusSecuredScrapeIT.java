package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.TestCertificates;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes a daemon serving HTTPS with authentication, using the shipped example
 * {@code deploy/prometheus/scrape-secured.yml} with only its paths and addresses replaced: the
 * basic-auth job, the bearer job and the fleet daemons' job (plain HTTP, bearer) are up, and a job
 * without the credential is refused (401).
 */
class PrometheusSecuredScrapeIT {
  @TempDir Path dir;

  @Test
  void theShippedSecuredScrapeConfigScrapesOverHttpsWithBasicAuthAndABearerToken()
      throws Exception {
    PrometheusServer.assertInstalled();
    TestCertificates pki = new TestCertificates(dir);
    TestCertificates.Identity http = pki.identity("sentinel-http", "http-ks-pw-4");
    Files.writeString(dir.resolve("scrape-password"), "scrape-pw-4\n");
    Files.writeString(dir.resolve("scrape-token"), "scrape-token-4\n");
    int basicPort = LoopbackPorts.freePort();
    int bearerPort = LoopbackPorts.freePort();
    int fleetPort = LoopbackPorts.freePort();
    Map<String, String> env = new HashMap<>(Map.of("HTTP_KS_PW", "http-ks-pw-4"));
    ConfigLoader loader = new ConfigLoader(env::get);
    // No JVM target is needed: the daemon's own series (target_up 0 of an absent target) are
    // enough to prove the scrape.
    String target = "targets:\n  - name: absent\n    jmx: 127.0.0.1:1\njfr:\n  enabled: false\n";
    Path basicConfig =
        Files.writeString(
            dir.resolve("basic.yaml"),
            """
            http:
              listen: 127.0.0.1:%d
              tls: {keyStore: %s, keyStorePasswordEnv: HTTP_KS_PW}
              auth: {basic: {username: prometheus, passwordFile: scrape-password}}
            """
                    .formatted(basicPort, http.keyStore())
                + target);
    Path bearerConfig =
        Files.writeString(
            dir.resolve("bearer.yaml"),
            """
            http:
              listen: 127.0.0.1:%d
              tls: {keyStore: %s, keyStorePasswordEnv: HTTP_KS_PW}
              auth: {bearer: {tokenFile: scrape-token}}
            """
                    .formatted(bearerPort, http.keyStore())
                + target);

    // The node agent's and discovery daemons' endpoint: plain HTTP with a bearer token.
    Path fleetConfig =
        Files.writeString(
            dir.resolve("fleet.yaml"),
            """
            http:
              listen: 127.0.0.1:%d
              auth: {bearer: {tokenFile: scrape-token}}
            """
                    .formatted(fleetPort)
                + target);

    String example =
        Files.readString(Jdks.repoRoot().resolve("deploy/prometheus/scrape-secured.yml"))
            .replace(
                "/etc/prometheus/secrets/jvm-sentinel-scrape-password",
                dir.resolve("scrape-password").toString())
            .replace(
                "/etc/prometheus/secrets/jvm-sentinel-scrape-token",
                dir.resolve("scrape-token").toString())
            .replace("/etc/prometheus/secrets/jvm-sentinel-ca.crt", http.certificate().toString())
            .replace("orders.internal:9404", "127.0.0.1:" + basicPort)
            .replace("payments.internal:9404", "127.0.0.1:" + bearerPort)
            .replace(
                "/etc/prometheus/secrets/jvm-sentinel-http-token",
                dir.resolve("scrape-token").toString())
            .replace("jvm-sentinel-fleet.monitoring:9404", "127.0.0.1:" + fleetPort);
    // One more job, like the first but without the credential: it must be refused.
    String unauthenticated =
        """
          - job_name: no-credential
            scheme: https
            tls_config:
              ca_file: %s
            static_configs:
              - targets: ["127.0.0.1:%d"]
        """
            .formatted(http.certificate(), basicPort);
    Path promConfig =
        Files.writeString(
            dir.resolve("prometheus.yml"),
            "global:\n  scrape_interval: 1s\n" + example + unauthenticated);
    int prometheusPort = LoopbackPorts.freePort();
    Process prometheus = null;
    try (SentinelDaemon basic =
            SentinelDaemon.start(loader.load(Optional.of(basicConfig), CliOverrides.NONE));
        SentinelDaemon bearer =
            SentinelDaemon.start(loader.load(Optional.of(bearerConfig), CliOverrides.NONE));
        SentinelDaemon fleet =
            SentinelDaemon.start(loader.load(Optional.of(fleetConfig), CliOverrides.NONE))) {
      prometheus = PrometheusServer.start(promConfig, dir, prometheusPort);
      String query = "http://127.0.0.1:" + prometheusPort + "/api/v1/targets";
      await("every scrape job has a result (log: " + dir + "/prometheus.log)")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                Map<String, JsonNode> jobs = jobs(query);
                assertThat(jobs.get("jvm-sentinel").path("health").asText()).isEqualTo("up");
                assertThat(jobs.get("jvm-sentinel-bearer").path("health").asText()).isEqualTo("up");
                assertThat(jobs.get("jvm-sentinel-fleet").path("health").asText()).isEqualTo("up");
                assertThat(jobs.get("no-credential").path("health").asText()).isEqualTo("down");
              });
      assertThat(jobs(query).get("no-credential").path("lastError").asText()).contains("401");
      // And what the daemon counted: refused scrapes, by reason.
      assertThat(basic.registry().scrape())
          .containsPattern("jvm_sentinel_http_auth_failures_total\\{reason=\"missing\",\\} [1-9]");
      assertThat(bearer.registry().scrape())
          .contains("jvm_sentinel_target_up{target=\"absent\",} 0.0");
      // The fleet job sent its token: the plain-HTTP daemon refused nothing.
      assertThat(fleet.registry().scrape())
          .doesNotContainPattern(
              "jvm_sentinel_http_auth_failures_total\\{reason=\"(missing|invalid)\",\\} [1-9]");
    } finally {
      if (prometheus != null) {
        prometheus.destroy();
        if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly();
        }
      }
    }
  }

  private static Map<String, JsonNode> jobs(String url) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    Map<String, JsonNode> jobs = new HashMap<>();
    for (JsonNode target :
        new ObjectMapper().readTree(response.body()).path("data").path("activeTargets")) {
      jobs.put(target.path("labels").path("job").asText(), target);
    }
    return jobs;
  }
}
