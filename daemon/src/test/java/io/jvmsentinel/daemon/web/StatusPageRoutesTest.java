package io.jvmsentinel.daemon.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.config.HttpAuth;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.http.HttpAccess;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page, its assets, snapshot downloads, recent alerts and page links, without a browser. */
class StatusPageRoutesTest {
  @TempDir Path dir;

  private static HttpEndpoint.Request get(String path) {
    return new HttpEndpoint.Request("GET", path, path, null, Map.of());
  }

  private static AlertNotification notification(String target, String key) {
    return new AlertNotification(
        "ThreadStorm",
        target,
        key,
        Severity.WARNING,
        AlertNotification.Status.FIRING,
        Instant.EPOCH,
        Instant.EPOCH,
        "storm",
        "why",
        "what",
        "alerts/runbooks/ThreadStorm.md",
        Map.of(),
        Optional.empty());
  }

  @Test
  void thePageIsServedForTheOverviewAndEachTargetWithAStrictPolicy() {
    StatusPageRoute page = new StatusPageRoute();

    for (String path : List.of("/", "/targets/orders", "/targets/")) {
      HttpEndpoint.Response response = page.get(get(path));
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.contentType()).startsWith("text/html");
      assertThat(response.headers().get("Content-Security-Policy"))
          .contains("default-src 'self'", "script-src 'self'", "connect-src 'self'");
      // No inline script: everything the page runs is a file the policy allows.
      assertThat(new String(response.body(), StandardCharsets.UTF_8))
          .doesNotContainPattern("<script>|<script [^>]*>[^<]")
          .doesNotContain("http://", "https://");
    }
    assertThatThrownBy(() -> page.get(get("/wp-admin"))).isInstanceOf(HttpEndpoint.NotFound.class);
  }

  /**
   * The page shows alerts from this JSON, through textContent only (StatusPageIT renders markup in
   * a real browser): the text arrives as JSON data, markup kept as text, without control,
   * bidirectional or zero-width characters.
   */
  @Test
  void recentAlertsCarryTargetTextAsCleanJsonDataForAPageThatNeverParsesHtml() throws Exception {
    RecentAlerts recent = new RecentAlerts(n -> {});
    String hostile = "<img src=x onerror=alert(1)>\u001b[31m\n\u200B\u202Eexe";
    recent.notify(notification("orders", hostile));

    HttpEndpoint.Response response = recent.get(get(RecentAlerts.PATH));

    assertThat(response.contentType()).startsWith("application/json");
    String body = new String(response.body(), StandardCharsets.UTF_8);
    var alerts = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
    assertThat(alerts.toString()).contains("<img src=x onerror=alert(1)>_[31m___exe");
    assertThat(body).doesNotContain("\u001b", "\u200B", "\u202E", "\\u001b", "\\n");
    for (String asset : List.of("page.js", "flame.js")) {
      try (var in = StatusPage.class.getResourceAsStream(asset)) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .as(asset)
            .doesNotContain(".innerHTML", "outerHTML", "insertAdjacentHTML", "document.write");
      }
    }
  }

  @Test
  void assetsComeFromAFixedTableInTheJar() {
    PageAssets assets = new PageAssets();

    assertThat(assets.get(get("/ui/uPlot.iife.min.js")).contentType())
        .startsWith("text/javascript");
    assertThat(assets.get(get("/ui/page.css")).contentType()).startsWith("text/css");
    assertThat(new String(assets.get(get("/ui/LICENSE-uPlot.txt")).body(), StandardCharsets.UTF_8))
        .contains("MIT License");
    assertThatThrownBy(() -> assets.get(get("/ui/../page.html")))
        .isInstanceOf(HttpEndpoint.NotFound.class);
    assertThatThrownBy(() -> assets.get(get("/ui/io/jvmsentinel/daemon/web/page.js")))
        .isInstanceOf(HttpEndpoint.NotFound.class);
    assertThat(assets.pageWeight()).isBetween(10_000L, 200_000L);
  }

  @Test
  void onlyASnapshotAnAlertNamesIsDownloadable() throws Exception {
    Path snapshots = Files.createDirectories(dir.resolve("snapshots"));
    Path named = Files.write(snapshots.resolve("orders-ThreadStorm-1.jfr"), new byte[] {1, 2, 3});
    Files.write(snapshots.resolve("other.jfr"), new byte[] {4});
    Files.writeString(dir.resolve("secret.jfr"), "secret");
    SnapshotDownloads downloads =
        new SnapshotDownloads(Optional.of(snapshots), () -> Set.of(named.toString()));

    HttpEndpoint.Response ok = downloads.get(get("/api/v1/snapshots/orders-ThreadStorm-1.jfr"));
    // Streamed from the open file, not read into the response.
    assertThat(ok.body()).isEmpty();
    assertThat(ok.streamed()).hasValueSatisfying(s -> assertThat(s.length()).isEqualTo(3));
    try (var in = ok.streamed().get().in()) {
      assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
    }
    assertThat(ok.headers().get("Content-Disposition")).contains("attachment");
    for (String path :
        List.of(
            "/api/v1/snapshots/other.jfr",
            "/api/v1/snapshots/../secret.jfr",
            "/api/v1/snapshots/orders-ThreadStorm-1.txt",
            "/api/v1/snapshots/")) {
      assertThatThrownBy(() -> downloads.get(get(path)))
          .as(path)
          .isInstanceOf(HttpEndpoint.NotFound.class);
    }
    SnapshotDownloads off = new SnapshotDownloads(Optional.empty(), () -> Set.of(named.toString()));
    assertThatThrownBy(() -> off.get(get("/api/v1/snapshots/orders-ThreadStorm-1.jfr")))
        .isInstanceOf(HttpEndpoint.NotFound.class);
  }

  @Test
  void notificationsLinkToTheAlertsPageOnlyWithAnExternalUrl() {
    List<AlertNotification> sent = new ArrayList<>();
    new AlertPageLinks(Optional.of(URI.create("https://sentinel.example.com/prod")), sent::add)
        .notify(notification("orders api", "CodeHeap 'profiled'"));
    new AlertPageLinks(Optional.empty(), sent::add).notify(notification("orders", ""));

    assertThat(sent.get(0).page())
        .contains(
            "https://sentinel.example.com/prod/targets/orders%20api#alert="
                + "jvm-sentinel%2FThreadStorm%2Forders%20api%2FCodeHeap%20%27profiled%27");
    assertThat(sent.get(1).page()).isEmpty();
  }

  @Test
  void recentAlertsAreBoundedNewestFirstAndPassedOn() {
    List<AlertNotification> passed = new ArrayList<>();
    RecentAlerts recent = new RecentAlerts(passed::add);

    for (int i = 0; i < RecentAlerts.CAPACITY + 10; i++) {
      recent.notify(notification("t" + i, ""));
    }

    assertThat(passed).hasSize(RecentAlerts.CAPACITY + 10);
    assertThat(recent.all()).hasSize(RecentAlerts.CAPACITY);
    assertThat(recent.all().get(0).target()).isEqualTo("t" + (RecentAlerts.CAPACITY + 9));
  }

  @Test
  void recentAlertsShowEachAlertOnceInItsLatestState() {
    RecentAlerts recent = new RecentAlerts(n -> {});
    AlertNotification stormFiring = notification("orders", "");
    AlertNotification otherSegment = notification("orders", "profiled");
    AlertNotification stormResolved =
        new AlertNotification(
            stormFiring.ruleId(),
            stormFiring.target(),
            stormFiring.key(),
            stormFiring.severity(),
            AlertNotification.Status.RESOLVED,
            stormFiring.startedAt(),
            Instant.EPOCH.plusSeconds(60),
            stormFiring.summary(),
            stormFiring.explanation(),
            stormFiring.action(),
            stormFiring.runbook(),
            Map.of(),
            Optional.empty());

    recent.notify(stormFiring);
    recent.notify(otherSegment);
    recent.notify(stormFiring); // re-raised, e.g. after a daemon restart
    recent.notify(stormResolved);

    assertThat(recent.all()).containsExactly(stormResolved, otherSegment);
  }

  @Test
  void thePageAndItsAssetsNeedTheEndpointsCredential() throws Exception {
    try (HttpEndpoint endpoint =
        HttpEndpoint.start(
            new InetSocketAddress("127.0.0.1", 0),
            Map.of("/", new StatusPageRoute(), PageAssets.PREFIX, new PageAssets()),
            Optional.empty(),
            HttpAccess.of(new HttpAuth.Basic("ops", Secret.of("pw")), new SimpleMeterRegistry()))) {
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      for (String path : List.of("/", "/targets/orders", "/ui/page.js")) {
        HttpResponse<String> denied =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(denied.statusCode()).as(path).isEqualTo(401);
      }
    }
  }
}
