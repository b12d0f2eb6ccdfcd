package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot filter on real recordings of this JVM (JDK 17): only the kept event types remain,
 * every one of them with its constants (stack traces, threads) still resolved, over several chunks.
 */
class EvidenceEventFilterTest {
  @TempDir Path dir;

  /** A recording of this JVM with several chunks, holding thread starts and the JVM's settings. */
  private Path recording(String threadPrefix) throws Exception {
    Path file = dir.resolve("in.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadStart").withStackTrace();
      recording.enable("jdk.InitialSystemProperty");
      recording.enable("jdk.InitialEnvironmentVariable");
      recording.enable("jdk.JVMInformation");
      recording.start();
      for (int chunk = 0; chunk < 3; chunk++) {
        startThreads(threadPrefix + chunk + "-", 5);
        // Another recording's start and stop end the current chunk.
        try (Recording rotation = new Recording()) {
          rotation.start();
          rotation.stop();
        }
      }
      recording.stop();
      recording.dump(file);
    }
    return file;
  }

  private static void startThreads(String prefix, int count) throws InterruptedException {
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> {}, prefix + i);
      thread.start();
      thread.join();
    }
  }

  private static List<RecordedEvent> events(Path file) throws Exception {
    List<RecordedEvent> events = new ArrayList<>();
    try (RecordingFile recording = new RecordingFile(file)) {
      while (recording.hasMoreEvents()) {
        events.add(recording.readEvent());
      }
    }
    return events;
  }

  private static Map<String, Integer> countByType(List<RecordedEvent> events) {
    Map<String, Integer> counts = new TreeMap<>();
    events.forEach(e -> counts.merge(e.getEventType().getName(), 1, Integer::sum));
    return counts;
  }

  @Test
  void onlyTheKeptEventTypesRemainWithTheirStacksAndThreadsInEveryChunk() throws Exception {
    Path in = recording("kept-");
    Map<String, Integer> before = countByType(events(in));
    assertThat(before).containsKeys("jdk.InitialSystemProperty", "jdk.InitialEnvironmentVariable");
    assertThat(ChunkHeader.split(Files.readAllBytes(in))).as("chunks").hasSizeGreaterThan(2);

    Path out = dir.resolve("out.jfr");
    EvidenceEventFilter.Result result =
        EvidenceEventFilter.filter(in, out, Set.of("jdk.ThreadStart"));

    List<RecordedEvent> after = events(out);
    assertThat(countByType(after)).containsOnlyKeys("jdk.ThreadStart");
    assertThat(after).hasSize(before.get("jdk.ThreadStart"));
    assertThat(result.keptEvents()).isEqualTo(after.size());
    assertThat(result.droppedEvents())
        .isEqualTo(before.values().stream().mapToInt(Integer::intValue).sum() - after.size());
    for (int chunk = 0; chunk < 3; chunk++) {
      String prefix = "kept-" + chunk + "-";
      assertThat(after)
          .as("thread starts of chunk %d with their creator's stack", chunk)
          .filteredOn(e -> e.getThread("thread").getJavaName().startsWith(prefix))
          .hasSize(5)
          .allSatisfy(
              e ->
                  assertThat(e.getStackTrace().getFrames())
                      .anySatisfy(
                          f -> assertThat(f.getMethod().getName()).isEqualTo("startThreads")));
    }
    assertThat(Files.size(out)).isLessThan(Files.size(in));
  }

  @Test
  void keepingNothingLeavesChunksThatStillParse() throws Exception {
    Path in = recording("none-");
    Path out = dir.resolve("out.jfr");

    EvidenceEventFilter.Result result = EvidenceEventFilter.filter(in, out, Set.of());

    assertThat(events(out)).isEmpty();
    assertThat(result.keptEvents()).isZero();
    assertThat(result.droppedEvents()).isPositive();
  }

  @Test
  void aRecordSizeRunningPastTheChunkIsRefused() throws Exception {
    byte[] bytes = Files.readAllBytes(recording("bad-"));
    byte[] chunk = Arrays.copyOf(bytes, (int) ChunkHeader.split(bytes).get(0).size());
    // The first record's size, a varint right after the header: 2 MB, more than the chunk holds.
    chunk[ChunkHeader.HEADER_SIZE] = (byte) 0xFF;
    chunk[ChunkHeader.HEADER_SIZE + 1] = (byte) 0xFF;
    chunk[ChunkHeader.HEADER_SIZE + 2] = (byte) 0x7F;

    assertThatThrownBy(() -> EvidenceEventFilter.filterChunk(chunk, Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record size");
  }

  @Test
  void aCheckpointDeltaIsRewrittenInItsOwnNineBytes() {
    byte[] bytes = new byte[9];
    Arrays.fill(bytes, (byte) 0x80);
    bytes[8] = 0x01;

    EvidenceEventFilter.writePadded(bytes, 0, -1234);

    assertThat(EvidenceEventFilter.varint(bytes, 0)).isEqualTo(-1234);
    assertThat(EvidenceEventFilter.varintLength(bytes, 0)).isEqualTo(9);
    assertThatThrownBy(() -> EvidenceEventFilter.writePadded(new byte[] {0}, 0, 200))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
