package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
  void aDamagedLineIsReportedWithItsPosition() throws IOException {
    Path file = dir.resolve("bad.signals.jsonl");
    Files.writeString(file, "{\"at\":\"2026-11-22T10:00:00Z\"}\n{not json\n");

    assertThatThrownBy(() -> SignalRecorder.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad.signals.jsonl:");
  }
}
