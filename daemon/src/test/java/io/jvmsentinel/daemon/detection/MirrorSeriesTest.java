package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MirrorSeriesTest {

  @Test
  void aRecordingBecomesOneSampleAScrapeOfEveryMetricTheMirrorReads() throws IOException {
    // The demo on JDK 21 (JFR, class counts): a thread-per-request storm and a TLS listener storm.
    List<String> lines =
        MirrorSeries.of(Replay.fixture("mixed-jdk21"), Duration.ofSeconds(15)).inputSeries();

    assertThat(lines)
        .anyMatch(line -> line.contains("'jvm_threads_started_threads_total{target=\"replay\"}'"))
        .anyMatch(line -> line.contains("'jvm_gc_pause_seconds_sum{"))
        .anyMatch(line -> line.contains("'jvm_jit_recompilations_total{"))
        .anyMatch(line -> line.contains("'jvm_classes_loads_classes_total{"))
        .anyMatch(line -> line.contains("'jvm_memory_used_bytes{"))
        .anyMatch(line -> line.contains("'process_uptime_seconds{"));
    String threads =
        lines.get(
            lines.indexOf(
                    lines.stream()
                        .filter(line -> line.contains("jvm_threads_started_threads_total"))
                        .findFirst()
                        .orElseThrow())
                + 1);
    double[] starts =
        List.of(threads.replaceAll(".*values: '(.*)'", "$1").split(" ")).stream()
            .filter(value -> !value.equals("_"))
            .mapToDouble(Double::parseDouble)
            .toArray();
    // JFR counts the storms' starts: thousands over the recording, never falling while it streams.
    assertThat(starts[starts.length - 1] - starts[0]).isGreaterThan(3000);
    for (int i = 1; i < starts.length; i++) {
      assertThat(starts[i]).isGreaterThanOrEqualTo(starts[i - 1]);
    }
  }
}
