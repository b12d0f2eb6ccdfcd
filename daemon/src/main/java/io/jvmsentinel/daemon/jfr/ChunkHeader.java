package io.jvmsentinel.daemon.jfr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The header of one JFR chunk, as a target's recording bytes carry it (a recording file, or what
 * {@code FlightRecorderMXBean.readStream} returns, is one or more chunks back to back).
 *
 * <p>Layout, big-endian, 68 bytes: magic {@code FLR\0}, major (u2), minor (u2), chunk size,
 * constant pool offset, metadata offset, start (epoch nanos), duration (nanos), start ticks, ticks
 * per second (eight u8), then a u4 of state and flags. Verified against the writer of JDK 8u262+
 * (jdk8u {@code hotspot/src/share/vm/jfr/recorder/repository/jfrChunkWriter.cpp}: format 2.0, the
 * same as JDK 11) and the reader of JDK 17 ({@code jdk.jfr.internal.consumer.ChunkHeader}: 68-byte
 * header; it reads major versions 1 and 2 and rejects any other, "Only Flight Recorder files of
 * version 1.x and 2.x can be read by this JDK"). JDK 17 and later write 2.1.
 *
 * <p>The bytes come from the target, which may send anything: every field used to find the next
 * chunk is checked, and garbage fails with an {@link IllegalArgumentException} that says where and
 * what, never with an index error.
 *
 * @param offset where the chunk starts in the bytes it was read from
 * @param size the whole chunk, header included, in bytes
 * @param startNanos start of the chunk, nanoseconds since the epoch
 * @param durationNanos how long the chunk covers (0 while a chunk is still being written)
 */
public record ChunkHeader(
    int offset, short major, short minor, long size, long startNanos, long durationNanos) {

  /** Bytes of a chunk header, the smallest possible chunk. */
  public static final int HEADER_SIZE = 68;

  private static final byte[] MAGIC = {'F', 'L', 'R', 0};
  private static final int SIZE_POSITION = 8;
  private static final int START_NANOS_POSITION = 32;
  private static final int DURATION_NANOS_POSITION = 40;

  /**
   * Reads the header at {@code offset} of {@code buffer} (big-endian whatever the buffer's order;
   * its position is not moved). Only the header must be there: the rest of the chunk may not have
   * arrived yet.
   *
   * @throws IllegalArgumentException if there is no complete, plausible chunk header at {@code
   *     offset}
   */
  public static ChunkHeader read(ByteBuffer buffer, int offset) {
    Objects.requireNonNull(buffer, "buffer");
    ByteBuffer in = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
    int limit = in.limit();
    if (offset < 0 || offset > limit) {
      throw new IllegalArgumentException(
          "JFR chunk offset " + offset + " is outside the " + limit + " bytes");
    }
    if (limit - offset < HEADER_SIZE) {
      throw malformed(
          offset,
          "only "
              + (limit - offset)
              + " bytes left, a chunk header needs "
              + HEADER_SIZE
              + " (truncated)");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (in.get(offset + i) != MAGIC[i]) {
        byte[] seen = new byte[MAGIC.length];
        in.get(offset, seen);
        throw malformed(
            offset,
            "bad magic 0x" + HexFormat.of().formatHex(seen) + ", expected FLR\\0 (0x464c5200)");
      }
    }
    short major = in.getShort(offset + 4);
    short minor = in.getShort(offset + 6);
    long size = in.getLong(offset + SIZE_POSITION);
    if (size < HEADER_SIZE) {
      throw malformed(
          offset,
          "version "
              + major
              + "."
              + minor
              + ", chunk size "
              + size
              + " is smaller than its "
              + HEADER_SIZE
              + "-byte header");
    }
    long startNanos = in.getLong(offset + START_NANOS_POSITION);
    long durationNanos = in.getLong(offset + DURATION_NANOS_POSITION);
    if (startNanos < 0 || durationNanos < 0) {
      throw malformed(
          offset, "negative start (" + startNanos + ") or duration (" + durationNanos + ")");
    }
    return new ChunkHeader(offset, major, minor, size, startNanos, durationNanos);
  }

  /**
   * The chunks of {@code bytes}, in order: each must be complete and the last must end exactly at
   * the end of the array. No bytes, no chunks.
   *
   * @throws IllegalArgumentException at the first bad header, chunk that runs past the end, or
   *     trailing bytes too short to be a chunk
   */
  public static List<ChunkHeader> split(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    List<ChunkHeader> chunks = new ArrayList<>();
    int offset = 0;
    while (offset < bytes.length) {
      ChunkHeader chunk = read(buffer, offset);
      long left = bytes.length - (long) offset;
      if (chunk.size() > left) {
        throw malformed(
            offset,
            "chunk size "
                + chunk.size()
                + " runs past the end: only "
                + left
                + " bytes left (truncated, or not a size)");
      }
      chunks.add(chunk);
      offset += (int) chunk.size(); // <= bytes.length - offset, so no overflow
    }
    return List.copyOf(chunks);
  }

  /** Whether this daemon's {@code jdk.jfr.consumer} parser reads this version (1.x and 2.x). */
  public boolean readable() {
    return major == 1 || major == 2;
  }

  public Instant start() {
    return Instant.ofEpochSecond(0, startNanos);
  }

  public Instant end() {
    return start().plusNanos(durationNanos);
  }

  private static IllegalArgumentException malformed(int offset, String what) {
    return new IllegalArgumentException("Not a JFR chunk at offset " + offset + ": " + what);
  }
}
