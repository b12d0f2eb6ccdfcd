package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.lab.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The status page in Chromium against every lab scenario (on demand: {@code -Pscenario-matrix}).
 * The scenarios run in batches of {@link #BATCH} lab JVMs, one daemon watching each batch; for each
 * target the page must load without a console error, show the target's state, draw every chart,
 * show the flame graph area and fetch nothing outside loopback. Load time and the sizes of the
 * /series and /flame payloads go to {@code target/screenshots/scenarios.txt}, with a screenshot per
 * scenario.
 */
class StatusPageScenariosIT {
  private static final int BATCH = 5;
  private static final List<String> CHARTS =
      List.of("chart-codecache", "chart-jit", "chart-threads", "chart-gc");

  @Test
  void thePageWorksForEveryLabScenario() throws Exception {
    List<String> report = new ArrayList<>();
    report.add("scenario\tok\tload ms\tseries bytes\tflame bytes\tstate");
    List<String> failures = new ArrayList<>();
    List<String> scenarios = Scenarios.names();
    try (StatusPageBrowser browser = StatusPageBrowser.start()) {
      for (int from = 0; from < scenarios.size(); from += BATCH) {
        List<String> batch = scenarios.subList(from, Math.min(scenarios.size(), from + BATCH));
        checkBatch(browser, batch, report, failures);
      }
    } finally {
      Files.write(StatusPageBrowser.SCREENSHOTS.resolve("scenarios.txt"), report);
    }
    assertThat(failures).as("scenarios whose page does not work").isEmpty();
  }

  private void checkBatch(
      StatusPageBrowser browser, List<String> batch, List<String> report, List<String> failures)
      throws Exception {
    Path dir = Files.createTempDirectory("status-page-scenarios");
    Path java = Jdks.jdk17();
    List<LabProcess> labs = new ArrayList<>();
    SentinelDaemon daemon = null;
    try {
      for (String scenario : batch) {
        labs.add(LabScenarios.builder(scenario, java, 17).build().start());
      }
      StringBuilder targets = new StringBuilder("targets:\n");
      for (int i = 0; i < batch.size(); i++) {
        labs.get(i).awaitReady(Duration.ofSeconds(60));
        targets.append(
            "  - {name: %s, jmx: \"%s\", pollInterval: 1s}\n"
                .formatted(batch.get(i), labs.get(i).jmxHostPort()));
      }
      daemon = Daemons.start(dir, targets.toString());
      String base = "http://127.0.0.1:" + daemon.httpPort();
      browser.driver().get(base + "/");
      browser.awaitText(
          "targets", Duration.ofSeconds(30), text -> assertThat(text).contains(batch));
      awaitStreams(browser, batch.size());
      browser.requestedUrls(); // drained: each scenario below judges its own requests
      browser.severeConsoleEntries();
      for (String scenario : batch) {
        try {
          Map<String, Object> timing = checkTarget(browser, base, scenario);
          report.add(
              "%s\tok\t%s\t%s\t%s\t%s"
                  .formatted(
                      scenario,
                      timing.get("load"),
                      timing.get("series"),
                      timing.get("flame"),
                      timing.get("state")));
        } catch (AssertionError | RuntimeException e) {
          String problem = e.getMessage().lines().limit(6).collect(Collectors.joining(" "));
          report.add(scenario + "\tFAIL\t\t\t\t" + problem);
          failures.add(scenario + ": " + problem);
        }
      }
    } finally {
      if (daemon != null) {
        daemon.close();
      }
      for (LabProcess lab : labs) {
        lab.close();
      }
    }
  }

  /**
   * Judged with JFR streaming, the payloads are those of a watched target, not of one still
   * connecting. A target whose stream does not come within 90 s is judged anyway: the page must
   * work JMX-only too, and the report names its JFR state.
   */
  private static void awaitStreams(StatusPageBrowser browser, int targets) {
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () ->
                  ((Number)
                              browser.js(
                                  "return [...document.querySelectorAll('#targets tbody tr')]"
                                      + ".filter(r => r.cells[2].textContent.startsWith('JFR streaming'))"
                                      + ".length;"))
                          .intValue()
                      == targets);
    } catch (ConditionTimeoutException e) {
      // Reported per target below (the state column).
    }
  }

  /** Opens the target's page, judges it and returns its load time and payload sizes. */
  private Map<String, Object> checkTarget(StatusPageBrowser browser, String base, String target)
      throws Exception {
    browser.driver().get(base + "/targets/" + target);
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              assertThat(browser.driver().findElement(By.id("target-state")).getText())
                  .as("the target's state")
                  .isNotBlank();
              for (String chart : CHARTS) {
                assertThat(
                        (Boolean)
                            browser.js(
                                "const c = document.getElementById(arguments[0]);"
                                    + " return c.querySelector('canvas') !== null"
                                    + " || c.textContent.includes('no data yet');",
                                chart))
                    .as("%s drawn", chart)
                    .isTrue();
              }
              assertThat(browser.driver().findElements(By.id("flame"))).isNotEmpty();
              assertThat(browser.driver().findElement(By.id("flame-summary")).getText())
                  .as("the flame graph's summary")
                  .isNotBlank();
            });
    assertThat(browser.severeConsoleEntries()).as("SEVERE console entries").isEmpty();
    assertThat(browser.noAlertOpen()).isTrue();
    browser.assertOnlyLoopbackRequested();
    @SuppressWarnings("unchecked")
    Map<String, Object> timing =
        (Map<String, Object>)
            browser.js(
                """
                const nav = performance.getEntriesByType('navigation')[0];
                const size = part => performance.getEntriesByType('resource')
                    .filter(r => new URL(r.name).pathname.endsWith(part))
                    .reduce((max, r) => Math.max(max, r.encodedBodySize), 0);
                return {state: document.getElementById('target-state').textContent,
                        load: Math.round(nav.loadEventEnd - nav.startTime),
                        series: size('/series'), flame: size('/flame')};
                """);
    assertThat(((Number) timing.get("series")).longValue()).as("/series bytes").isPositive();
    assertThat(((Number) timing.get("flame")).longValue()).as("/flame bytes").isPositive();
    browser.screenshot("scenario-" + target);
    return timing;
  }
}
