package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The header of one JFR chunk in bytes a target sent: where the chunk lies and which time it
 * covers. The layout (magic {@code FLR\0}, major and minor version, chunk size, constant pool and
 * metadata offsets, start nanos since the epoch, duration nanos, ...) is {@code
 * jdk.jfr.internal.consumer.ChunkHeader}'s; JDK 11 and the JDK 8u262+ backport write version 2.0. A
 * target's bytes are untrusted: a header that does not fit is an error, never a guess.
 */
record ChunkHeader(
    int offset, short major, short minor, long size, long startNanos, long durationNanos) {
  static final int HEADER_SIZE = 68;
  private static final int MAGIC = 0x464c5200; // "FLR\0"

  /** Versions the JDK 17+ parser reads: 1.0 (JDK 9, 10) and 2.x (JDK 8u262+, 11 and later). */
  boolean readable() {
    return (major == 1 && minor == 0) || major == 2;
  }

  Instant start() {
    return Instant.ofEpochSecond(0, startNanos);
  }

  Instant end() {
    return Instant.ofEpochSecond(0, startNanos + durationNanos);
  }

  /** The chunks of {@code bytes}, which must hold whole chunks one after the other. */
  static List<ChunkHeader> split(byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    List<ChunkHeader> chunks = new ArrayList<>();
    int offset = 0;
    while (offset < bytes.length) {
      if (bytes.length - offset < HEADER_SIZE) {
        throw new IOException(
            "JFR data ends in a truncated chunk header at byte " + offset + " of " + bytes.length);
      }
      if (buffer.getInt(offset) != MAGIC) {
        throw new IOException("no JFR chunk at byte " + offset + " (bad magic)");
      }
      long size = buffer.getLong(offset + 8);
      if (size < HEADER_SIZE || size > bytes.length - offset) {
        throw new IOException(
            "JFR chunk at byte "
                + offset
                + " claims "
                + size
                + " bytes, "
                + (bytes.length - offset)
                + " are there");
      }
      long durationNanos = buffer.getLong(offset + 40);
      chunks.add(
          new ChunkHeader(
              offset,
              buffer.getShort(offset + 4),
              buffer.getShort(offset + 6),
              size,
              buffer.getLong(offset + 32),
              Math.max(0, durationNanos)));
      offset += (int) size;
    }
    return chunks;
  }
}
