package io.jvmsentinel.daemon.alert.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AlertmanagerNotifier} against a real Prometheus Alertmanager (the Debian package {@code
 * prometheus-alertmanager}, installed by {@code .ci/install-test-deps}), on a free loopback port,
 * without clustering.
 */
public class AlertmanagerIT {
  public static final String INSTALL =
      "run .ci/install-test-deps, or: apt-get install --no-install-recommends"
          + " prometheus-alertmanager";
  public static final String CONFIG =
      """
      route:
        receiver: nowhere
      receivers:
        - name: nowhere
      """;

  @TempDir Path dir;
  final HttpClient http = HttpClient.newHttpClient();
  Process alertmanager;
  URI base;

  @BeforeEach
  void startAlertmanager() throws IOException {
    Path binary = binary();
    Path config = Files.writeString(dir.resolve("alertmanager.yml"), CONFIG);
    int port = LoopbackPorts.freePort();
    base = URI.create("http://127.0.0.1:" + port);
    alertmanager =
        new ProcessBuilder(
                binary.toString(),
                "--config.file=" + config,
                "--storage.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("alertmanager.log").toFile())
            .start();
    await("Alertmanager ready at " + base + "/-/ready (log: " + dir + "/alertmanager.log)")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> alertmanager.isAlive() && get("/-/ready").statusCode() == 200);
  }

  @AfterEach
  void stopAlertmanager() throws InterruptedException {
    if (alertmanager != null) {
      alertmanager.destroy();
      alertmanager.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      alertmanager.destroyForcibly();
    }
  }

  /** On PATH or in /usr/bin, under the Debian name or upstream's; never skipped when missing. */
  public static Path binary() {
    List<Path> dirs = new ArrayList<>();
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        dirs.add(Path.of(entry));
      }
    }
    dirs.add(Path.of("/usr/bin"));
    return dirs.stream()
        .flatMap(d -> Stream.of(d.resolve("prometheus-alertmanager"), d.resolve("alertmanager")))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "Prometheus Alertmanager not found (prometheus-alertmanager or alertmanager on"
                        + " PATH or in /usr/bin); "
                        + INSTALL));
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The alerts Alertmanager reports (it leaves out resolved ones) with alertname {@code rule}. */
  List<JsonNode> alerts(String rule) throws Exception {
    JsonNode all = TestNotifications.json(get("/api/v2/alerts").body());
    return StreamSupport.stream(all.spliterator(), false)
        .filter(a -> a.path("labels").path("alertname").asText().equals(rule))
        .toList();
  }

  @Test
  void firingIsActiveWithItsLabelsAndAnnotationsAndResolvedIsGone() throws Exception {
    Instant started = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    AlertNotification firing =
        new AlertNotification(
            "ThreadStorm",
            "orders",
            "ssl-listener",
            Severity.CRITICAL,
            AlertNotification.Status.FIRING,
            started,
            started,
            "Thread storm on orders: 212 thread starts/s",
            "One thread per TLS handshake (JDK-8246039).",
            "Upgrade the JDK.",
            "https://runbooks.example.com/ThreadStorm",
            Map.of("startsPerSecond", 212),
            Optional.of("/tmp/orders.jfr"));
    AlertmanagerNotifier notifier =
        new AlertmanagerNotifier(
            "alertmanager",
            base,
            JsonPoster.newClient(Duration.ofSeconds(5)),
            Duration.ofSeconds(5),
            Clock.systemUTC());

    notifier.send(firing);

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              List<JsonNode> alerts = alerts("ThreadStorm");
              assertThat(alerts).hasSize(1);
              JsonNode alert = alerts.get(0);
              assertThat(alert.path("status").path("state").asText()).isEqualTo("active");
              assertThat(alert.path("labels"))
                  .isEqualTo(
                      TestNotifications.json(
                          """
                          {"alertname": "ThreadStorm", "target": "orders", "key": "ssl-listener",
                           "severity": "critical", "source": "jvm-sentinel"}
                          """));
              assertThat(alert.path("annotations"))
                  .isEqualTo(
                      TestNotifications.json(
                          """
                          {"summary": "Thread storm on orders: 212 thread starts/s",
                           "description": "One thread per TLS handshake (JDK-8246039).",
                           "action": "Upgrade the JDK.",
                           "runbook_url": "https://runbooks.example.com/ThreadStorm",
                           "snapshot": "/tmp/orders.jfr"}
                          """));
              assertThat(Instant.parse(alert.path("startsAt").asText())).isEqualTo(started);
              assertThat(Instant.parse(alert.path("endsAt").asText()))
                  .isAfter(Instant.now().plus(Duration.ofMinutes(3)));
            });

    Instant resolvedAt = Instant.now();
    notifier.send(
        new AlertNotification(
            firing.ruleId(),
            firing.target(),
            firing.key(),
            firing.severity(),
            AlertNotification.Status.RESOLVED,
            firing.startedAt(),
            resolvedAt,
            firing.summary(),
            firing.explanation(),
            firing.action(),
            firing.runbook(),
            firing.evidence(),
            firing.snapshot()));

    await().atMost(Duration.ofSeconds(20)).until(() -> alerts("ThreadStorm").isEmpty());
  }
}
