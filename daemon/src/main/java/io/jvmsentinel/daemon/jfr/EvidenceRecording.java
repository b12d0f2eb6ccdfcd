package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * The daemon's evidence recording on a target: a recording with no settings of its own, on disk,
 * bounded and leased like the feed's ({@link TargetRecording}), that keeps the chunks the target
 * writes for {@code maxAge}, so an alert's snapshot can read the minutes before the alert from the
 * target ({@link #read}). A running recording keeps every chunk written while it runs, whatever
 * enabled the events in it; with no settings it changes nothing in what the target records.
 *
 * <p>Why not the feed's own recording (issue 28, measured on JDK 17 and 25 targets): a remote
 * stream's read removes each chunk from its recording once sent, so a copy of it holds only the
 * chunk being written, the events since the target's last chunk rotation (a second alert's snapshot
 * held 2 s). Nor the stream's local copy ({@code RemoteRecordingStream.dump}): a JDK 17 daemon
 * deletes each chunk once parsed whatever {@code setMaxAge} says, and on any JDK a dump waits for
 * the stream to bring the chunk its copy ended; a stream closed meanwhile (storm pause, reconnect,
 * shutdown) left a 0-byte file and no error, or a dump thread waiting for good.
 */
final class EvidenceRecording {
  private static final int BLOCK_SIZE = 1024 * 1024;

  private final TargetFlightRecorder recorder;
  private final long id;
  private final String copyName;
  private final RecordingLease lease;
  private final Instant started;

  private EvidenceRecording(
      TargetFlightRecorder recorder,
      long id,
      String copyName,
      RecordingLease lease,
      Instant started) {
    this.recorder = recorder;
    this.id = id;
    this.copyName = copyName;
    this.lease = lease;
    this.started = started;
  }

  /**
   * Starts an evidence recording named {@code name} that keeps {@code maxAge} (at most {@code
   * maxSizeBytes}); its copies are named {@code copyName}. On failure nothing is left on the
   * target.
   */
  static EvidenceRecording start(
      MBeanServerConnection mbeans,
      String name,
      String copyName,
      Duration maxAge,
      long maxSizeBytes,
      TargetRecording.Lease lease)
      throws IOException, JMException {
    TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
    long opened = System.nanoTime();
    long id = recorder.newRecording();
    try {
      Map<String, String> options = TargetRecording.options(name, maxAge, maxSizeBytes, lease);
      options.put("disk", "true");
      recorder.setOptions(id, options);
      recorder.start(id);
      long startedMillis =
          recorder.find(id).map(TargetFlightRecorder.Recording::startTimeMillis).orElse(0L);
      return new EvidenceRecording(
          recorder,
          id,
          copyName,
          new RecordingLease(recorder, id, lease, opened),
          Instant.ofEpochMilli(startedMillis));
    } catch (IOException | JMException | RuntimeException e) {
      try {
        recorder.close(id);
      } catch (IOException | RuntimeException ignored) {
        // The lease stops it; a later connect closes it as a leftover.
      }
      throw e;
    }
  }

  long id() {
    return id;
  }

  /** When it started on the target: it holds nothing older. */
  Instant started() {
    return started;
  }

  void renewLeaseIfDue(long nowNanos) {
    lease.renewIfDue(nowNanos);
  }

  /**
   * Copies the chunks that overlap {@code from} to {@code to} into {@code out} through a stopped
   * copy (which ends the target's current chunk, so it holds everything until now): at most {@code
   * maxBytes}. Safe beside the feed; the copy keeps its chunks even if this recording closes.
   */
  long read(Instant from, Instant to, OutputStream out, long maxBytes) throws IOException {
    return recorder.readCopy(
        recorder.stoppedCopy(id), copyName, from, to, BLOCK_SIZE, out, maxBytes);
  }

  void close() throws IOException {
    recorder.close(id);
  }
}
