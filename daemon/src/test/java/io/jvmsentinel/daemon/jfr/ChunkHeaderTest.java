package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkHeaderTest {
  /** 2026-11-25T16:50:30Z and a bit: when chunk-jdk11.jfr was recorded. */
  private static final Instant JDK11_RECORDED = Instant.parse("2026-11-25T16:50:00Z");

  @TempDir Path tmp;

  @Test
  void aRealJdk11ChunkIsOneReadable20ChunkCoveringItsEvents() throws Exception {
    byte[] jdk11 = resource("/jfr/chunk-jdk11.jfr");

    List<ChunkHeader> chunks = ChunkHeader.split(jdk11);

    assertThat(chunks).hasSize(1);
    ChunkHeader chunk = chunks.get(0);
    assertThat(chunk.offset()).isZero();
    assertThat(chunk.major()).isEqualTo((short) 2);
    assertThat(chunk.minor()).isEqualTo((short) 0);
    assertThat(chunk.size()).isEqualTo(jdk11.length);
    assertThat(chunk.readable()).isTrue();
    assertThat(chunk.start()).isBetween(JDK11_RECORDED, JDK11_RECORDED.plusSeconds(60));
    assertThat(chunk.end()).isAfter(chunk.start());
    // The JDK's own parser agrees: every event lies within the chunk's start and end.
    for (RecordedEvent event : events(jdk11)) {
      assertThat(event.getEndTime()).isBetween(chunk.start(), chunk.end());
    }
  }

  @Test
  void realJdk17AndJdk25ChunksAreFormat21() throws Exception {
    for (String jdk : new String[] {"jdk17", "jdk25"}) {
      byte[] bytes = collectorsFixture(jdk);

      ChunkHeader chunk = ChunkHeader.split(bytes).get(0);

      assertThat(chunk.major()).as(jdk).isEqualTo((short) 2);
      assertThat(chunk.minor()).as(jdk).isEqualTo((short) 1);
      assertThat(chunk.size()).as(jdk).isEqualTo(bytes.length);
      assertThat(chunk.readable()).as(jdk).isTrue();
    }
  }

  @Test
  void concatenatedChunksSplitAtTheirOwnSizes() throws Exception {
    byte[] jdk11 = resource("/jfr/chunk-jdk11.jfr");
    byte[] jdk17 = collectorsFixture("jdk17");
    byte[] both = concat(jdk11, jdk17, jdk11);

    List<ChunkHeader> chunks = ChunkHeader.split(both);

    assertThat(chunks)
        .extracting(ChunkHeader::offset, ChunkHeader::minor, ChunkHeader::size)
        .containsExactly(
            tuple(0, (short) 0, (long) jdk11.length),
            tuple(jdk11.length, (short) 1, (long) jdk17.length),
            tuple(jdk11.length + jdk17.length, (short) 0, (long) jdk11.length));
    // Concatenated chunks are what a multi-chunk recording file is: the JDK parser reads them all.
    assertThat(events(both)).hasSize(events(jdk11).size() * 2 + events(jdk17).size());
  }

  /**
   * A JDK 8u262+ chunk header as jdk8u jfrChunkWriter.cpp writes it: "FLR" plus its terminating NUL
   * (MAGIC_LEN 4), JFR_VERSION_MAJOR 2 and JFR_VERSION_MINOR 0 as u2, six u8 slots (size,
   * checkpoint offset, metadata offset, start nanos, duration nanos, start ticks), the tick
   * frequency as u8 and the capabilities as u4 (1: compressed integers).
   */
  @Test
  void aJdk8HeaderBuiltFromTheJdk8uWriterIsReadable20() {
    Instant start = Instant.parse("2026-11-25T12:00:00Z");
    byte[] chunk = header(2, 0, 4096, nanos(start), 5_000_000_000L).array();

    ChunkHeader header = ChunkHeader.split(chunk).get(0);

    assertThat(header)
        .isEqualTo(new ChunkHeader(0, (short) 2, (short) 0, 4096, nanos(start), 5_000_000_000L));
    assertThat(header.readable()).isTrue();
    assertThat(header.start()).isEqualTo(start);
    assertThat(header.end()).isEqualTo(start.plusSeconds(5));
  }

  @Test
  void onlyMajorVersions1And2AreReadable() {
    assertThat(ChunkHeader.split(header(1, 0, 100, 0, 0).array()).get(0).readable()).isTrue();
    assertThat(ChunkHeader.split(header(2, 1, 100, 0, 0).array()).get(0).readable()).isTrue();
    // JRockit-era JFR (Oracle JDK 7 and 8 before 8u262, commercial): not for jdk.jfr.consumer.
    assertThat(ChunkHeader.split(header(0, 9, 100, 0, 0).array()).get(0).readable()).isFalse();
    assertThat(ChunkHeader.split(header(3, 0, 100, 0, 0).array()).get(0).readable()).isFalse();
  }

  @Test
  void readsAHeaderAtAnOffsetBigEndianWhateverTheBufferOrderWithoutMovingIt() {
    ByteBuffer buffer = ByteBuffer.allocate(300);
    buffer.put(200, header(2, 0, 100, 7, 9).array(), 0, 100);
    buffer.order(ByteOrder.LITTLE_ENDIAN).position(11);

    ChunkHeader header = ChunkHeader.read(buffer, 200);

    assertThat(header).isEqualTo(new ChunkHeader(200, (short) 2, (short) 0, 100, 7, 9));
    assertThat(buffer.position()).isEqualTo(11);
    assertThat(buffer.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void theRestOfAChunkNeedNotHaveArrivedToReadItsHeader() {
    ByteBuffer onlyHeader = ByteBuffer.wrap(Arrays.copyOf(header(2, 0, 5000, 1, 2).array(), 68));

    assertThat(ChunkHeader.read(onlyHeader, 0).size()).isEqualTo(5000);
    assertThatThrownBy(() -> ChunkHeader.split(onlyHeader.array()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Not a JFR chunk at offset 0: chunk size 5000 runs past the end: only 68 bytes left"
                + " (truncated, or not a size)");
  }

  @Test
  void garbageFailsWithWhereAndWhat() throws Exception {
    byte[] jdk11 = resource("/jfr/chunk-jdk11.jfr");
    byte[] wrongMagic = jdk11.clone();
    wrongMagic[0] = 'X';

    assertRejected(wrongMagic, "offset 0: bad magic 0x584c5200, expected FLR\\0 (0x464c5200)");
    assertRejected(
        Arrays.copyOf(jdk11, 40), "offset 0: only 40 bytes left, a chunk header needs 68");
    assertRejected(
        Arrays.copyOf(jdk11, jdk11.length - 1),
        "offset 0: chunk size 82317 runs past the end: only 82316 bytes left");
    assertRejected(
        header(2, 0, 0, 0, 0).array(), "chunk size 0 is smaller than its 68-byte header");
    assertRejected(
        header(2, 0, -5, 0, 0).array(), "chunk size -5 is smaller than its 68-byte header");
    assertRejected(
        header(2, 0, Long.MAX_VALUE, 0, 0).array(),
        "chunk size 9223372036854775807 runs past the end: only 100 bytes left");
    assertRejected(header(2, 0, 100, -1, 0).array(), "negative start (-1) or duration (0)");
    assertRejected(header(2, 0, 100, 0, -1).array(), "negative start (0) or duration (-1)");
    assertRejected(
        concat(jdk11, new byte[] {'F', 'L', 'R', 0, 0, 2}),
        "offset 82317: only 6 bytes left, a chunk header needs 68 (truncated)");
    assertRejected(
        concat(jdk11, new byte[100]), "offset 82317: bad magic 0x00000000, expected FLR\\0");
  }

  @Test
  void noBytesAreNoChunksAndAnOffsetOutsideTheBufferIsRefused() {
    assertThat(ChunkHeader.split(new byte[0])).isEmpty();
    assertThatThrownBy(() -> ChunkHeader.read(ByteBuffer.allocate(10), 11))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("JFR chunk offset 11 is outside the 10 bytes");
    assertThatThrownBy(() -> ChunkHeader.read(ByteBuffer.allocate(10), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void assertRejected(byte[] bytes, String message) {
    assertThatThrownBy(() -> ChunkHeader.split(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Not a JFR chunk at ")
        .hasMessageContaining(message);
  }

  /** A 100-byte buffer (or {@code size} if between 68 and 4096) starting with a chunk header. */
  private static ByteBuffer header(
      int major, int minor, long size, long startNanos, long durationNanos) {
    int length = size >= ChunkHeader.HEADER_SIZE && size <= 4096 ? (int) size : 100;
    ByteBuffer out = ByteBuffer.allocate(length); // big-endian, as HotSpot's be_write
    out.put(new byte[] {'F', 'L', 'R', 0})
        .putShort((short) major)
        .putShort((short) minor)
        .putLong(size)
        .putLong(68) // constant pool (checkpoint) offset
        .putLong(68) // metadata offset
        .putLong(startNanos)
        .putLong(durationNanos)
        .putLong(123_456_789L) // start ticks
        .putLong(1_000_000_000L) // ticks per second (JfrTime::frequency)
        .putInt(1); // capabilities: compressed integers
    return out;
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private byte[] resource(String name) throws IOException {
    try (InputStream in = ChunkHeaderTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  private static byte[] collectorsFixture(String jdk) throws IOException {
    return Files.readAllBytes(
        Jdks.repoRoot()
            .resolve("collectors/src/test/resources/jfr/threads/thread-starts-" + jdk + ".jfr"));
  }

  private List<RecordedEvent> events(byte[] recording) throws IOException {
    Path file = Files.createTempFile(tmp, "chunks", ".jfr");
    Files.write(file, recording);
    return RecordingFile.readAllEvents(file);
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] part : parts) {
      length += part.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }
}
