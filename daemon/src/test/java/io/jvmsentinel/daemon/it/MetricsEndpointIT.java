package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.PrometheusText;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The daemon's real /metrics output for real target JVMs of several versions: names, the target
 * tag, and values checked against what the target itself says.
 */
class MetricsEndpointIT {
  private static final long MB = 1024 * 1024;

  @TempDir Path dir;

  static Stream<Arguments> targets() {
    // Below 240 MB the code cache is one pool; with SegmentedCodeCache it is three CodeHeaps.
    return Stream.of(
        Arguments.of("jdk17-unsegmented", Jdks.jdk17(), 64, false),
        Arguments.of("jdk17-segmented", Jdks.jdk17(), 256, true),
        Arguments.of("jdk25-unsegmented", Jdks.jdk25(), 48, false),
        Arguments.of("jdk25-segmented", Jdks.jdk25(), 240, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("targets")
  void servesCodeCacheJitThreadAndGcMetricsOfTheTarget(
      String name, Path javaHome, int codeCacheMb, boolean segmented) throws Exception {
    LabSpec spec =
        LabSpec.builder("thread-per-request")
            .javaHome(javaHome)
            .rate(50)
            .jvmArgs(
                "-XX:ReservedCodeCacheSize=" + codeCacheMb + "m",
                segmented ? "-XX:+SegmentedCodeCache" : "-XX:-SegmentedCodeCache")
            .build();
    try (LabProcess lab = spec.startReady(Duration.ofSeconds(30));
        SentinelDaemon daemon = Daemons.start(dir, Daemons.target(name, lab.jmxHostPort(), "1s"))) {
      DaemonHttp http = new DaemonHttp(daemon.httpPort());
      Map<String, String> target = Map.of("target", name);

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(http.scrape().value("jvm_sentinel_target_up", target)).contains(1.0));
      PrometheusText first = http.scrape();

      // Code cache: one series per segment, maxima adding up to ReservedCodeCacheSize.
      var codeCache =
          first.series("jvm_memory_max_bytes", target).stream()
              .filter(
                  s ->
                      s.labels().get("id").startsWith("CodeHeap")
                          || s.labels().get("id").equals("CodeCache"))
              .toList();
      assertThat(codeCache)
          .allSatisfy(s -> assertThat(s.labels()).containsEntry("area", "nonheap"));
      if (segmented) {
        assertThat(codeCache)
            .extracting(s -> s.labels().get("id"))
            .containsExactlyInAnyOrder(
                "CodeHeap 'non-nmethods'",
                "CodeHeap 'profiled nmethods'",
                "CodeHeap 'non-profiled nmethods'");
      } else {
        assertThat(codeCache).extracting(s -> s.labels().get("id")).containsExactly("CodeCache");
      }
      assertThat(codeCache.stream().mapToDouble(PrometheusText.Sample::value).sum())
          .isEqualTo(codeCacheMb * MB);
      assertThat(first.sum("jvm_memory_used_bytes", Map.of("target", name, "area", "nonheap")))
          .isPositive();
      assertThat(first.series("jvm_memory_committed_bytes", target)).isNotEmpty();
      assertThat(first.series("jvm_memory_peak_bytes", target)).isNotEmpty();
      assertThat(first.series("jvm_memory_used_bytes", Map.of("target", name, "area", "heap")))
          .isNotEmpty();

      // JIT, threads, classes, process, identity.
      assertThat(first.sum("jvm_compilation_time_ms_total", target)).isPositive();
      assertThat(first.value("jvm_threads_live_threads", target))
          .hasValueSatisfying(v -> assertThat(v).isPositive());
      assertThat(first.value("jvm_threads_daemon_threads", target)).isPresent();
      assertThat(first.value("jvm_threads_peak_threads", target)).isPresent();
      assertThat(first.value("jvm_classes_loaded_classes", target))
          .hasValueSatisfying(v -> assertThat(v).isGreaterThan(400));
      assertThat(first.value("process_cpu_usage", target)).isPresent();
      assertThat(first.value("process_uptime_seconds", target))
          .hasValueSatisfying(v -> assertThat(v).isPositive());
      assertThat(first.series("jvm_info", target))
          .singleElement()
          .satisfies(
              s ->
                  assertThat(s.labels().get("version"))
                      .startsWith(String.valueOf(Jdks.featureVersion(javaHome))));

      // The target starts 50 threads/s: the cumulative counter follows it.
      double startedBefore = first.value("jvm_threads_started_threads_total", target).orElseThrow();
      await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(
              () ->
                  assertThat(
                          http.scrape()
                              .value("jvm_threads_started_threads_total", target)
                              .orElseThrow())
                      .isGreaterThan(startedBefore + 50));

      // GC: force a collection on the target; its notification becomes a pause sample.
      try (JMXConnector jmx = JMXConnectorFactory.connect(lab.jmxServiceUrl())) {
        MBeanServerConnection mbeans = jmx.getMBeanServerConnection();
        mbeans.invoke(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "gc", null, null);
      }
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                PrometheusText now = http.scrape();
                assertThat(
                        now.sum(
                            "jvm_gc_pause_seconds_count",
                            Map.of("target", name, "cause", "System.gc()")))
                    .isGreaterThanOrEqualTo(1);
                assertThat(now.sum("jvm_gc_collections_total", target)).isGreaterThanOrEqualTo(1);
              });
      assertThat(http.scrape().series("jvm_sentinel_poll_duration_seconds_count", target))
          .isNotEmpty();
    }
  }
}
