package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines;
import io.jvmsentinel.daemon.export.datadog.FakeAgent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric a Grafana dashboard or a Prometheus rule names is in a real /metrics scrape of the
 * daemon, watching lab targets that exercise them, and every metric the Datadog dashboard or a
 * Datadog monitor names arrives over DogStatsD from the same daemon: a dashboard, rule or monitor
 * naming a metric the daemon does not export, or no longer sends, fails the build.
 */
class DashboardMetricsIT {

  /**
   * Series that exist only after an event no lab scenario can cause on demand. These are checked
   * against the catalog only, and the test says so; each must still be a catalog name.
   */
  private static final Map<String, String> CATALOG_ONLY =
      Map.of(
          "jvm_jit_compilation_failures_total",
          "needs a failed JIT compilation (JFR jdk.CompilationFailure); no lab scenario forces one",
          "jvm_sentinel_tag_values_capped_total",
          "appears once a series cap turns a value into `other`, which these labs do not do"
              + " reliably");

  /** The same for the Datadog names (Micrometer dot names, timers as .count, .sum and .max). */
  private static final Map<String, String> DATADOG_CATALOG_ONLY =
      Map.of(
          "jvm.jit.compilation.failures",
          "needs a failed JIT compilation (JFR jdk.CompilationFailure); no lab scenario forces one",
          "jvm.sentinel.tag.values.capped",
          "appears once a series cap turns a value into `other`, which these labs do not do"
              + " reliably");

  @TempDir Path dir;

  @Test
  void everyMetricNamedByDashboardsAndRulesIsInARealScrape() throws Exception {
    Map<String, Set<String>> used = ObservabilityFiles.prometheusNames();
    Map<String, MeterDefinition> catalog = CatalogNames.prometheusSeries();
    assertThat(catalog.keySet())
        .as("catalog-only names must be catalog names")
        .containsAll(CATALOG_ONLY.keySet());
    Set<String> expected = new TreeSet<>(used.keySet());
    expected.removeAll(CatalogNames.PROMETHEUS_SCRAPE_SERIES); // Prometheus adds these itself
    expected.removeAll(CATALOG_ONLY.keySet());

    // JDK 17 targets: JFR streaming, the code cache sweeper (JDK 16-19), segmented code cache.
    // tls-listener-storm: thread starts by site, short-lived threads, TLS handshakes (and a
    // ThreadStorm alert, hence notifications); tls-full-handshakes: full handshakes and
    // certificates; healthy: JIT warm-up (compilations, deoptimizations) on a small code cache;
    // virtual-threads on JDK 21: carriers pinned by a legacy driver's synchronized call.
    LabSpec storm = LabSpec.builder("tls-listener-storm").javaHome(Jdks.jdk17()).rate(60).build();
    LabSpec full = LabSpec.builder("tls-full-handshakes").javaHome(Jdks.jdk17()).rate(10).build();
    LabSpec healthy =
        LabSpec.builder("healthy")
            .javaHome(Jdks.jdk17())
            .jvmArgs("-XX:ReservedCodeCacheSize=32m", "-XX:+SegmentedCodeCache", "-Xmx128m")
            .build();
    LabSpec loom = LabSpec.builder("virtual-threads").javaHome(Jdks.jdk(21)).rate(100).build();
    Map<String, Set<String>> datadogUsed = ObservabilityFiles.datadogMetricNames();
    assertThat(CatalogNames.datadogMetrics().keySet())
        .as("Datadog catalog-only names must be catalog names")
        .containsAll(DATADOG_CATALOG_ONLY.keySet());
    Set<String> datadogExpected = new TreeSet<>(datadogUsed.keySet());
    datadogExpected.removeAll(DATADOG_CATALOG_ONLY.keySet());
    try (FakeAgent agent = FakeAgent.udp();
        LabProcess stormLab = storm.startReady(Duration.ofSeconds(30));
        LabProcess fullLab = full.startReady(Duration.ofSeconds(30));
        LabProcess healthyLab = healthy.startReady(Duration.ofSeconds(30));
        LabProcess loomLab = loom.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon =
            start(
                Map.of(
                    "storm", stormLab.jmxHostPort(),
                    "full", fullLab.jmxHostPort(),
                    "healthy", healthyLab.jmxHostPort(),
                    "loom", loomLab.jmxHostPort()),
                agent)) {
      Set<String> sent = ConcurrentHashMap.newKeySet();
      agent.record(
          line -> {
            if (line instanceof DogStatsdLines.Metric m) {
              sent.add(m.name());
            }
            return false; // only the names are kept
          });
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  http.scrape().series("jvm_sentinel_target_up").stream()
                          .filter(s -> s.value() == 1.0)
                          .count()
                      == 4);
      // A collection on each target: its pause becomes jvm_gc_pause_seconds_* series.
      for (LabProcess lab : List.of(stormLab, fullLab, healthyLab, loomLab)) {
        try (JMXConnector jmx = JMXConnectorFactory.connect(lab.jmxServiceUrl())) {
          jmx.getMBeanServerConnection()
              .invoke(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "gc", null, null);
        }
      }

      awaitAllSeen(
          expected,
          () ->
              http.scrape().samples().stream()
                  .map(PrometheusText.Sample::name)
                  .collect(Collectors.toSet()),
          Duration.ofSeconds(120),
          used,
          catalog.keySet(),
          "named by dashboards or rules but not in the daemon's /metrics after 120 s");
      // The same daemon has been sending over DogStatsD all along: a step is 1 s.
      awaitAllSeen(
          datadogExpected,
          () -> sent,
          Duration.ofSeconds(30),
          datadogUsed,
          CatalogNames.datadogMetrics().keySet(),
          "named by the Datadog dashboard or monitors but never sent over DogStatsD");
      System.out.printf(
          "DashboardMetricsIT: %d Datadog names received over DogStatsD: %s%n",
          datadogExpected.size(), datadogExpected);
      System.out.printf(
          "DashboardMetricsIT: Datadog names checked against the catalog only: %s%n",
          DATADOG_CATALOG_ONLY);
      System.out.printf(
          "DashboardMetricsIT: %d metric names checked against a real scrape: %s%n",
          expected.size(), expected);
      System.out.printf("DashboardMetricsIT: checked against the catalog only: %s%n", CATALOG_ONLY);
      Set<String> scrapeSeries = new TreeSet<>(used.keySet());
      scrapeSeries.retainAll(CatalogNames.PROMETHEUS_SCRAPE_SERIES);
      System.out.printf(
          "DashboardMetricsIT: added by Prometheus itself, not the daemon: %s%n", scrapeSeries);
    }
  }

  /**
   * Waits until every expected name has been seen; else fails with the missing names, where the
   * dashboards, rules or monitors use each, and which of them are no catalog name at all.
   */
  private static void awaitAllSeen(
      Set<String> expected,
      Supplier<Set<String>> seen,
      Duration within,
      Map<String, Set<String>> used,
      Set<String> catalog,
      String failure) {
    AtomicReference<Set<String>> missing = new AtomicReference<>(Set.of());
    try {
      await()
          .atMost(within)
          .pollInterval(Duration.ofSeconds(2))
          .untilAsserted(
              () -> {
                Set<String> absent = new TreeSet<>(expected);
                absent.removeAll(seen.get());
                missing.set(absent);
                assertThat(absent).isEmpty();
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      Map<String, Set<String>> report = new TreeMap<>();
      missing.get().forEach(name -> report.put(name, used.get(name)));
      throw new AssertionError(
          failure
              + " (name = where used): "
              + report
              + "\nNot exported at all by the catalog: "
              + missing.get().stream().filter(n -> !catalog.contains(n)).toList(),
          e);
    }
  }

  private SentinelDaemon start(Map<String, String> targets, FakeAgent agent) throws Exception {
    StringBuilder yaml =
        new StringBuilder(
            """
            datadog:
              enabled: true
              address: %s
              step: 1s
            http:
              listen: 127.0.0.1:0
            connection:
              connectTimeout: 2s
              callTimeout: 2s
              reconnectInitialDelay: 300ms
              reconnectMaxDelay: 2s
            targets:
            """
                .formatted(agent.address()));
    new TreeMap<>(targets)
        .forEach(
            (name, jmx) ->
                yaml.append("  - name: ")
                    .append(name)
                    .append("\n    jmx: ")
                    .append(jmx)
                    .append("\n    pollInterval: 1s\n"));
    Path file = Files.createTempFile(dir, "sentinel", ".yaml");
    Files.writeString(file, yaml);
    return SentinelDaemon.start(
        new ConfigLoader()
            .load(Optional.of(file), new CliOverrides(List.of(), List.of(), Optional.empty())));
  }
}
