package io.jvmsentinel.daemon.jfr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordingFile;

/**
 * Rewrites a recording read from a target so that it holds only the events of the given types (the
 * daemon's own), with every chunk's metadata and constant pools: the chunks on a target hold the
 * events of every recording that runs there, such as {@code jdk.InitialEnvironmentVariable} and
 * {@code jdk.InitialSystemProperty} of the target's own {@code -XX:StartFlightRecording}, and a
 * snapshot must not carry them. {@code RecordingFile.write(Path, Predicate)} does this from JDK 19
 * on; the daemon runs on 17.
 *
 * <p>Implementation notes. A chunk is its 68-byte header, then records, each a varint size, a
 * varint type id and the payload: type 0 is metadata, type 1 a checkpoint (constant pools), any
 * other an event. Dropping records moves the ones after them, so the header's chunk size, its
 * offsets of the last checkpoint and of the metadata, and each checkpoint's delta to the previous
 * checkpoint (a negative varint, always nine bytes, so it is patched in place) are rewritten, as
 * the JDK's own filter ({@code jdk.jfr.internal.consumer.filter.ChunkWriter}) does. Constants only
 * dropped events used stay in the pools, unreferenced. The bytes come from the target: every size
 * and offset is checked, and anything unexpected fails with an {@link IllegalArgumentException}.
 */
final class EvidenceEventFilter {
  private static final int METADATA = 0;
  private static final int CHECKPOINT = 1;
  private static final int SIZE_POSITION = 8;
  private static final int CHECKPOINT_POSITION = 16;
  private static final int METADATA_POSITION = 24;
  private static final int MAX_VARINT = 9;

  /** What the filter kept and dropped. */
  record Result(long keptEvents, long droppedEvents) {}

  private EvidenceEventFilter() {}

  /** Writes to {@code out} the chunks of {@code in} with only the events named in {@code keep}. */
  static Result filter(Path in, Path out, Set<String> keep) throws IOException {
    Set<Long> kept = typeIds(in, keep);
    long keptEvents = 0;
    long droppedEvents = 0;
    try (FileChannel source = FileChannel.open(in, StandardOpenOption.READ);
        OutputStream sink = Files.newOutputStream(out)) {
      long offset = 0;
      long size = source.size();
      while (offset < size) {
        ByteBuffer header = ByteBuffer.allocate(ChunkHeader.HEADER_SIZE);
        source.read(header, offset);
        ChunkHeader chunk = ChunkHeader.read(header.flip(), 0);
        if (chunk.size() > size - offset || chunk.size() > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              "JFR chunk at " + offset + " of " + chunk.size() + " bytes runs past the end");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) chunk.size());
        while (bytes.hasRemaining() && source.read(bytes, offset + bytes.position()) > 0) {
          // Reads the whole chunk.
        }
        Chunk filtered = filterChunk(bytes.array(), kept);
        sink.write(filtered.bytes());
        keptEvents += filtered.kept();
        droppedEvents += filtered.dropped();
        offset += chunk.size();
      }
    }
    return new Result(keptEvents, droppedEvents);
  }

  /** The ids of the event types named in {@code keep}, as the recording's metadata gives them. */
  private static Set<Long> typeIds(Path in, Set<String> keep) throws IOException {
    Set<Long> kept = new HashSet<>();
    Set<Long> other = new HashSet<>();
    try (RecordingFile recording = new RecordingFile(in)) {
      for (EventType type : recording.readEventTypes()) {
        (keep.contains(type.getName()) ? kept : other).add(type.getId());
      }
    }
    if (kept.stream().anyMatch(other::contains)) {
      throw new IllegalArgumentException("one JFR type id names two event types");
    }
    return kept;
  }

  /** One chunk after filtering, and how many events it kept and dropped. */
  private record Chunk(byte[] bytes, long kept, long dropped) {}

  /** A checkpoint as copied: where it was, where it is now, and where its delta is. */
  private record Checkpoint(long from, int to, int deltaAt, long delta) {}

  static Chunk filterChunk(byte[] chunk, Set<Long> keptTypes) {
    ByteBuffer header = ByteBuffer.wrap(chunk);
    long lastCheckpoint = header.getLong(CHECKPOINT_POSITION);
    long metadata = header.getLong(METADATA_POSITION);
    ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length);
    out.write(chunk, 0, ChunkHeader.HEADER_SIZE);
    Map<Long, Integer> moved = new HashMap<>();
    List<Checkpoint> checkpoints = new ArrayList<>();
    long kept = 0;
    long dropped = 0;
    int position = ChunkHeader.HEADER_SIZE;
    while (position < chunk.length) {
      long size = varint(chunk, position);
      if (size <= 0 || size > chunk.length - position) {
        throw malformed(position, "record size " + size);
      }
      int at = position + varintLength(chunk, position);
      long type = varint(chunk, at);
      if (type == METADATA || type == CHECKPOINT) {
        moved.put((long) position, out.size());
        if (type == CHECKPOINT) {
          int deltaAt = at + varintLength(chunk, at);
          deltaAt += varintLength(chunk, deltaAt); // start time
          deltaAt += varintLength(chunk, deltaAt); // duration
          if (deltaAt >= position + size) {
            throw malformed(position, "checkpoint shorter than its header");
          }
          checkpoints.add(
              new Checkpoint(
                  position, out.size(), out.size() + deltaAt - position, varint(chunk, deltaAt)));
        }
        out.write(chunk, position, (int) size);
      } else if (keptTypes.contains(type)) {
        out.write(chunk, position, (int) size);
        kept++;
      } else {
        dropped++;
      }
      position += (int) size;
    }
    byte[] result = out.toByteArray();
    for (Checkpoint checkpoint : checkpoints) {
      if (checkpoint.delta() == 0) {
        continue; // The chunk's first checkpoint: nothing before it.
      }
      Integer previous = moved.get(checkpoint.from() + checkpoint.delta());
      if (previous == null) {
        throw malformed(checkpoint.from(), "checkpoint delta " + checkpoint.delta());
      }
      writePadded(result, checkpoint.deltaAt(), previous - checkpoint.to());
    }
    ByteBuffer rewritten = ByteBuffer.wrap(result);
    rewritten.putLong(SIZE_POSITION, result.length);
    rewritten.putLong(CHECKPOINT_POSITION, movedOffset(moved, lastCheckpoint));
    rewritten.putLong(METADATA_POSITION, movedOffset(moved, metadata));
    return new Chunk(result, kept, dropped);
  }

  private static long movedOffset(Map<Long, Integer> moved, long offset) {
    if (offset == 0) {
      return 0; // None written (a chunk cut short).
    }
    Integer now = moved.get(offset);
    if (now == null) {
      throw malformed(offset, "the header points at no checkpoint or metadata record");
    }
    return now;
  }

  /** A JFR varint: seven bits a byte, low first, the ninth byte whole. */
  static long varint(byte[] bytes, int at) {
    long value = 0;
    for (int i = 0; i < MAX_VARINT; i++) {
      if (at + i >= bytes.length) {
        throw malformed(at, "varint runs past the end");
      }
      byte b = bytes[at + i];
      if (i == MAX_VARINT - 1) {
        return value | ((b & 0xFFL) << 56);
      }
      value |= (b & 0x7FL) << (7 * i);
      if (b >= 0) {
        return value;
      }
    }
    throw new AssertionError();
  }

  static int varintLength(byte[] bytes, int at) {
    for (int i = 0; i < MAX_VARINT - 1; i++) {
      if (at + i >= bytes.length) {
        throw malformed(at, "varint runs past the end");
      }
      if (bytes[at + i] >= 0) {
        return i + 1;
      }
    }
    return MAX_VARINT;
  }

  /** Writes {@code value} over the varint at {@code at}, in as many bytes as it had. */
  static void writePadded(byte[] bytes, int at, long value) {
    int length = varintLength(bytes, at);
    if (length < MAX_VARINT && (value >>> (7 * length)) != 0) {
      throw malformed(at, "value " + value + " does not fit " + length + " varint bytes");
    }
    for (int i = 0; i < length; i++) {
      if (i == MAX_VARINT - 1) {
        bytes[at + i] = (byte) (value >>> 56);
      } else {
        long bits = (value >>> (7 * i)) & 0x7F;
        bytes[at + i] = (byte) (i < length - 1 ? bits | 0x80 : bits);
      }
    }
  }

  private static IllegalArgumentException malformed(long at, String what) {
    return new IllegalArgumentException("Unexpected JFR chunk layout at " + at + ": " + what);
  }
}
