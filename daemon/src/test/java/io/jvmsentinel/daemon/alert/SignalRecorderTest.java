package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recorded timeline reads back exactly as it was sampled: replays see what the rules saw. */
class SignalRecorderTest {
  @TempDir Path dir;

  @Test
  void samplesRoundTripThroughTheRecording() throws IOException {
    List<SignalSample> samples =
        List.of(
            new Samples()
                .threadStarts(10)
                .recompilations(Double.NaN)
                .creators(Samples.site("com.example.A.run", 3, "worker-#"))
                .build(),
            new Samples().at(Samples.T0.plusSeconds(1)).down(2).build());
    try (SignalRecorder recorder = SignalRecorder.to(dir)) {
      samples.forEach(sample -> recorder.record("orders/eu 1", sample));
    }

    Path file = dir.resolve("orders_eu_1.signals.jsonl");
    assertThat(SignalRecorder.read(file)).isEqualTo(samples);
  }

  @Test
  void theTargetsJfrStateIsRecordedAndRecordingsFromBeforeItReadItAsUnknown() throws Exception {
    String noMBean = "the target has no FlightRecorder MBean, so only JMX metrics are collected";
    SignalSample sample =
        new Samples()
            .jmxOnly()
            .target(
                new SignalSample.Target(
                    "127.0.0.1:9010", Samples.T0, null, 1, "11.0.13", Map.of(), noMBean, null))
            .build();
    try (SignalRecorder recorder = SignalRecorder.to(dir)) {
      recorder.record("legacy", sample);
    }
    assertThat(SignalRecorder.read(dir.resolve("legacy.signals.jsonl")))
        .singleElement()
        .satisfies(read -> assertThat(read.details().target().jfrState()).isEqualTo(noMBean));

    // Recorded on 2026-11-25, before the field existed.
    Path old = Path.of(getClass().getResource("/replay/mixed-jdk17.signals.jsonl.gz").toURI());
    List<SignalSample> recorded = SignalRecorder.read(old);
    assertThat(Files.readString(dir.resolve("legacy.signals.jsonl"))).contains("\"jfrState\"");
    assertThat(recorded).isNotEmpty();
    assertThat(recorded).allSatisfy(s -> assertThat(s.details().target().jfrState()).isNull());
  }

  @Test
  void aDamagedLineIsReportedWithItsPosition() throws IOException {
    Path file = dir.resolve("bad.signals.jsonl");
    Files.writeString(file, "{\"at\":\"2026-11-22T10:00:00Z\"}\n{not json\n");

    assertThatThrownBy(() -> SignalRecorder.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad.signals.jsonl:");
  }

  @Test
  void eachStretchOfARecordingStartsWithItsFormatVersion() throws IOException {
    SignalSample sample = new Samples().threadStarts(1).build();
    for (int run = 0; run < 2; run++) { // two daemon runs append to the same file
      try (SignalRecorder recorder = SignalRecorder.to(dir)) {
        recorder.record("orders", sample);
      }
    }
    List<String> lines = Files.readAllLines(dir.resolve("orders.signals.jsonl"));
    String header =
        "{\"format\":\"jvm-sentinel-signals\",\"version\":" + SignalRecorder.VERSION + "}";
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo(header);
    assertThat(lines.get(2)).isEqualTo(header);
    assertThat(SignalRecorder.read(dir.resolve("orders.signals.jsonl")))
        .containsExactly(sample, sample);
  }

  @Test
  void aRenamedFieldIsRefusedNotReadAsZero() throws IOException {
    SignalSample sample = new Samples().threadStarts(120).build();
    String line =
        SignalRecorder.Json.MAPPER
            .writeValueAsString(sample)
            .replace("\"threadStarts\"", "\"threadsStarted\"");
    Path file = dir.resolve("renamed.signals.jsonl");
    Files.writeString(file, line + "\n");

    assertThatThrownBy(() -> SignalRecorder.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("renamed.signals.jsonl:1: not a signal sample")
        .hasMessageContaining("threadsStarted");
  }

  @Test
  void aRecordingFromANewerFormatSaysWhichVersionsThisDaemonReads() throws IOException {
    Path file = dir.resolve("future.signals.jsonl");
    Files.writeString(file, "{\"format\":\"jvm-sentinel-signals\",\"version\":99}\n");

    assertThatThrownBy(() -> SignalRecorder.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("future.signals.jsonl:1: recorded in format version 99")
        .hasMessageContaining("reads versions 1 to " + SignalRecorder.VERSION);
  }
}
