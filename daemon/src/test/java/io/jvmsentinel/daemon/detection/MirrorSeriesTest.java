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
    double[] starts =
        values(
            lines,
            lines.stream()
                .filter(line -> line.contains("jvm_threads_started_threads_total"))
                .findFirst()
                .orElseThrow());
    // JFR counts the storms' starts: thousands over the recording, never falling while it streams.
    assertThat(starts[starts.length - 1] - starts[0]).isGreaterThan(3000);
    assertThat(starts).as("never falls").isSorted();
  }

  @Test
  void aTlsPeerHasItsOwnSeriesFromItsSecondHandshakeAsTheExporterCountsIt() throws IOException {
    // Incident 2 on JDK 17: 40 full handshakes/s with the lab's HTTPS server, and as many one-off
    // inbound handshakes from the clients' ephemeral ports (the lab is both ends).
    List<String> lines =
        MirrorSeries.of(Replay.fixture("tls-full-handshakes-jdk17"), Duration.ofSeconds(15))
            .inputSeries();

    // 681 peers recorded: the ports seen twice (an ephemeral port used again) get a series too.
    List<String> peers =
        lines.stream().filter(line -> line.contains("'jvm_tls_handshakes_total{")).toList();
    assertThat(peers).hasSizeBetween(1, 20);
    String server =
        peers.stream().filter(line -> line.contains("peer=\"localhost:")).findFirst().orElseThrow();
    double[] handshakes = values(lines, server);
    double[] full =
        values(
            lines,
            server
                .replace("jvm_tls_handshakes_total", "jvm_tls_handshakes_full_total")
                .replaceAll(",protocol=.*}", "}"));
    assertThat(handshakes[handshakes.length - 1]).isGreaterThan(1000);
    assertThat(full[full.length - 1] / handshakes[handshakes.length - 1]).isGreaterThan(0.9);
  }

  @Test
  void blockedTimeAddsUpPerLockAsTheExporterCountsIt() throws IOException {
    // 16 request threads blocked on one monitor, about 6 at a time, from 20 s on (JDK 17).
    List<String> lines =
        MirrorSeries.of(Replay.fixture("lock-contention-jdk17"), Duration.ofSeconds(15))
            .inputSeries();

    String lock =
        lines.stream()
            .filter(line -> line.contains("'jvm_threads_contention_seconds_sum{"))
            .filter(line -> line.contains("kind=\"monitor-enter\""))
            .filter(line -> line.contains("SlowCloseConnectionCache"))
            .findFirst()
            .orElseThrow();
    assertThat(lines).anyMatch(line -> line.contains("'jvm_threads_live_threads{"));
    double[] blocked = values(lines, lock);
    double seconds = 15.0 * (blocked.length - 1);
    // Threads blocked on average over the scrapes that have the series: several, as recorded.
    assertThat((blocked[blocked.length - 1] - blocked[0]) / seconds).isBetween(2.0, 16.0);
    assertThat(blocked).as("never falls").isSorted();
  }

  /** The samples of {@code series} (its line), skipping the scrapes without one. */
  private static double[] values(List<String> lines, String series) {
    String values = lines.get(lines.indexOf(series) + 1);
    return List.of(values.replaceAll(".*values: '(.*)'", "$1").split(" ")).stream()
        .filter(value -> !value.equals("_"))
        .mapToDouble(Double::parseDouble)
        .toArray();
  }
}
