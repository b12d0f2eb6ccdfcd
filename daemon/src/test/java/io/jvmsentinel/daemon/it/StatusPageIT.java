package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;

/**
 * The status page in a real browser (Debian's chromium through chromium-driver, headless) against
 * three lab targets watched by one daemon: a TLS listener storm, a code cache that fills, and
 * threads with markup for names. One daemon, one browser and the three labs serve every test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusPageIT {
  private static final String HOSTILE = "<img src=x onerror=alert(";

  private final List<LabProcess> labs = new ArrayList<>();
  private Path dir;
  private SentinelDaemon daemon;
  private StatusPageBrowser browser;
  private String base;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("status-page-it");
    Path java = Jdks.jdk17();
    LabProcess tls = LabSpec.builder("tls-listener-storm").javaHome(java).build().start();
    labs.add(tls);
    // The fill waits until the daemon streams JFR, so the chart marks the event itself.
    LabProcess codeCache =
        LabScenarios.builder("codecache-full", java, 17)
            .delay(Duration.ofSeconds(12))
            .build()
            .start();
    labs.add(codeCache);
    LabProcess hostile = LabSpec.builder("hostile-names").javaHome(java).build().start();
    labs.add(hostile);
    for (LabProcess lab : labs) {
      lab.awaitReady(Duration.ofSeconds(30));
    }
    daemon =
        Daemons.start(
            dir,
            """
            detection:
              snapshots:
                directory: "%s"
            targets:
              - {name: tls, jmx: "%s", pollInterval: 1s}
              - {name: codecache, jmx: "%s", pollInterval: 1s}
              - {name: hostile, jmx: "%s", pollInterval: 1s}
            """
                .formatted(
                    dir.resolve("snapshots"),
                    tls.jmxHostPort(),
                    codeCache.jmxHostPort(),
                    hostile.jmxHostPort()));
    base = "http://127.0.0.1:" + daemon.httpPort();
    // Never skipped: the browser tests are part of the suite (.ci/install-test-deps installs both).
    browser = StatusPageBrowser.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (daemon != null) {
      daemon.close();
    }
    for (LabProcess lab : labs) {
      lab.close();
    }
  }

  @Test
  @Order(1)
  void overviewListsEveryTargetWithItsState() throws Exception {
    browser.driver().get(base + "/");
    browser.awaitText(
        "targets",
        Duration.ofSeconds(30),
        table -> assertThat(table).contains("tls", "codecache", "hostile", "JFR streaming", "17."));
    screenshot("overview");
  }

  @Test
  @Order(2)
  void tlsListenerStormFlameGraphHasFinishHandshakeWidestUnderThreadStart() throws Exception {
    browser.driver().get(base + "/targets/tls");
    // 90 s: on a loaded machine the daemon may restart a stream that delivered nothing for 60 s.
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(
            () -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> widest =
                  (Map<String, Object>)
                      js(
                          """
                          const root = document.querySelector('#flame .frame[data-depth="0"]');
                          if (!root) return null;
                          const kids = [...document.querySelectorAll(
                              '#flame .frame[data-parent="' + root.dataset.id + '"]')];
                          kids.sort((a, b) => Number(b.dataset.value) - Number(a.dataset.value));
                          return {root: root.dataset.frame,
                                  widest: kids.length ? kids[0].dataset.frame : null,
                                  label: kids.length ? kids[0].textContent : null};
                          """);
              assertThat(widest).isNotNull();
              assertThat(widest.get("root")).isEqualTo("java.lang.Thread.start");
              assertThat((String) widest.get("widest"))
                  .startsWith("sun.security.ssl.TransportContext.finishHandshake");
              // The known cause is labelled on the frame.
              assertThat((String) widest.get("label")).contains("JDK-8246039");
            });
    assertThat(browser.driver().findElement(By.id("sites")).getText())
        .contains("HandshakeCompletedNotify-Thread");
    screenshot("tls-listener-storm");
  }

  @Test
  @Order(3)
  void codeCacheChartMarksTheFullEvent() throws Exception {
    browser.driver().get(base + "/targets/codecache");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(
            () ->
                assertThat(
                        browser
                            .driver()
                            .findElements(
                                By.cssSelector(
                                    "#codecache-markers li[data-kind='FULL'][data-drawn='true']")))
                    .isNotEmpty());
    assertThat(browser.driver().findElement(By.id("codecache-markers")).getText())
        .contains("code cache full");
    // The chart is drawn: uPlot's canvas with the segments in its legend.
    assertThat(browser.driver().findElement(By.id("chart-codecache")).getText())
        .contains("CodeHeap");
    js("document.querySelector('#target h2:nth-of-type(3)').scrollIntoView();");
    screenshot("codecache-full");
  }

  @Test
  @Order(4)
  void hostileThreadNamesAreShownAsText() throws Exception {
    browser.driver().get(base + "/targets/hostile");
    await()
        .atMost(Duration.ofSeconds(45))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(
            () ->
                assertThat(browser.driver().findElement(By.id("sites")).getText())
                    .contains(HOSTILE));
    // Shown as text: no element was made of it, and no script it carries ran.
    assertThat(js("return document.querySelectorAll('img').length;")).isEqualTo(0L);
    assertThat(browser.noAlertOpen()).isTrue();
    js("document.getElementById('flame').scrollIntoView();");
    screenshot("hostile-names");
  }

  @Test
  @Order(5)
  void noRequestLeavesLoopbackAndThePageIsLight() throws Exception {
    browser.driver().get(base + "/targets/tls");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(browser.driver().findElements(By.cssSelector("#flame .frame")))
                    .isNotEmpty());
    browser.assertOnlyLoopbackRequested();
    // Weight (bytes of HTML, scripts and styles as sent) and load time, for docs/status-page.md.
    @SuppressWarnings("unchecked")
    Map<String, Object> timing =
        (Map<String, Object>)
            js(
                """
                const nav = performance.getEntriesByType('navigation')[0];
                const assets = performance.getEntriesByType('resource')
                    .filter(r => r.name.includes('/ui/'));
                return {html: nav.encodedBodySize,
                        assets: assets.reduce((sum, r) => sum + r.encodedBodySize, 0),
                        load: Math.round(nav.loadEventEnd - nav.startTime)};
                """);
    long weight = ((Number) timing.get("html")).longValue() + (Long) timing.get("assets");
    String line =
        "page weight %d bytes (HTML+JS+CSS), load event after %s ms%n"
            .formatted(weight, timing.get("load"));
    System.out.print(line);
    Files.writeString(StatusPageBrowser.SCREENSHOTS.resolve("page-weight.txt"), line);
    assertThat(weight).isBetween(10_000L, 200_000L);
  }

  /** A target that stops answering keeps its alert, shown as held rather than as current. */
  @Test
  @Order(6)
  void anAlertOfATargetThatStopsAnsweringIsShownHeld() throws Exception {
    LabProcess tls = labs.get(0);
    browser.driver().get(base + "/targets/tls");
    browser.awaitText(
        "alerts",
        Duration.ofSeconds(60),
        text -> assertThat(text).contains("ThreadStorm").doesNotContain("held since"));
    tls.suspend();
    try {
      browser.awaitText(
          "alerts",
          Duration.ofSeconds(60),
          text -> assertThat(text).contains("held since", "the target does not answer"));
      screenshot("held-alert");
      browser.driver().get(base + "/");
      browser.awaitText(
          "targets",
          Duration.ofSeconds(30),
          text -> assertThat(text).contains("ThreadStorm", "(held)"));
    } finally {
      tls.resume();
    }
  }

  private Object js(String script) {
    return browser.js(script);
  }

  private void screenshot(String name) throws Exception {
    browser.screenshot(name);
  }
}
