package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.jfr.ChunkHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Opens a snapshot as JDK Mission Control would ({@link RecordingFile}) and says whether it is
 * whole: it parses, its chunks cover the alert's window, and it holds every event the alert's rule
 * needs ({@link SnapshotEvidence}) within that window.
 */
final class SnapshotCheck {
  /** Clock and rounding between the target's recording start, its chunks and the alert. */
  static final Duration SLACK = Duration.ofSeconds(1);

  /**
   * The verdict on one snapshot.
   *
   * @param whole whether it may be published
   * @param why what is missing, when not whole
   * @param events the events it holds, by type
   * @param from where its chunks start
   * @param to where its chunks end
   */
  record Verdict(boolean whole, String why, Map<String, Long> events, Instant from, Instant to) {
    long eventCount() {
      return events.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private SnapshotCheck() {}

  /**
   * Checks {@code file} against {@code needs} for the window {@code from} to {@code to} (the alert
   * fired at {@code to}).
   */
  static Verdict check(Path file, List<SnapshotEvidence.Need> needs, Instant from, Instant to)
      throws IOException {
    Instant[] span = chunkSpan(file);
    Map<String, Long> events = new TreeMap<>();
    long[] found = new long[needs.size()];
    if (span != null) {
      try (RecordingFile recording = new RecordingFile(file)) {
        while (recording.hasMoreEvents()) {
          RecordedEvent event = recording.readEvent();
          String type = event.getEventType().getName();
          events.merge(type, 1L, Long::sum);
          if (event.getEndTime().isBefore(from.minus(SLACK))
              || event.getStartTime().isAfter(to.plus(SLACK))) {
            continue;
          }
          for (int i = 0; i < needs.size(); i++) {
            SnapshotEvidence.Need need = needs.get(i);
            if ((need.types().isEmpty() || need.types().contains(type))
                && need.matches().test(event)) {
              found[i]++;
            }
          }
        }
      }
    }
    if (span == null || events.isEmpty()) {
      return new Verdict(
          false, "the target returned no JFR events for the window", events, null, null);
    }
    if (span[0].isAfter(from.plus(SLACK)) || span[1].isBefore(to.minus(SLACK))) {
      return new Verdict(
          false,
          "its chunks cover "
              + span[0]
              + " to "
              + span[1]
              + ", not the window "
              + from
              + " to "
              + to,
          events,
          span[0],
          span[1]);
    }
    for (int i = 0; i < needs.size(); i++) {
      if (found[i] == 0) {
        return new Verdict(
            false,
            "it holds no " + needs.get(i).what() + " between " + from + " and " + to,
            events,
            span[0],
            span[1]);
      }
    }
    return new Verdict(true, "", events, span[0], span[1]);
  }

  /** Where the file's chunks start and end, or null when it holds none. */
  private static Instant[] chunkSpan(Path file) throws IOException {
    Instant start = null;
    Instant end = null;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long offset = 0;
      while (offset < channel.size()) {
        ByteBuffer header = ByteBuffer.allocate(ChunkHeader.HEADER_SIZE);
        channel.read(header, offset);
        ChunkHeader chunk;
        try {
          chunk = ChunkHeader.read(header.flip(), 0);
        } catch (IllegalArgumentException e) {
          throw new IOException("not a JFR recording at " + offset + ": " + e.getMessage(), e);
        }
        start = start == null || chunk.start().isBefore(start) ? chunk.start() : start;
        end = end == null || chunk.end().isAfter(end) ? chunk.end() : end;
        offset += chunk.size();
      }
    }
    return start == null ? null : new Instant[] {start, end};
  }
}
