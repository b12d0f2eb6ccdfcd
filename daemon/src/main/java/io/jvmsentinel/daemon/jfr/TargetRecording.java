package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import jdk.management.jfr.RemoteRecordingStream;

/**
 * The daemon's recording on the target, one per feed: created by a remote stream (identified by the
 * id the target returned to that stream's own {@code newRecording} call, {@link
 * NewRecordingCapture}) or by the daemon itself for a chunk feed, then named for this daemon
 * ({@link RecordingOwner}) and bounded before it starts: {@code maxAge} and {@code maxSize} bound
 * what the target keeps (a stream's own limits only bound the daemon's copy), and a {@code
 * duration} lease, renewed while the feed runs, stops the recording on its own once the daemon is
 * gone. Used from the session thread; {@link #feed()} may be read from any thread.
 */
final class TargetRecording {
  /**
   * How long a recording runs on after its daemon's last renewal, and how often a live daemon
   * renews it: minutes, so a slow or briefly broken connection never stops a live stream.
   */
  record Lease(Duration length, Duration renewEvery) {
    static final Lease DEFAULT = new Lease(Duration.ofMinutes(5), Duration.ofMinutes(1));
  }

  private final TargetFlightRecorder recorder;
  private final EventFeed feed;
  private final long id;
  private final RecordingLease lease;

  private TargetRecording(
      TargetFlightRecorder recorder, EventFeed feed, long id, Lease lease, long openedNanos) {
    this.recorder = recorder;
    this.feed = feed;
    this.id = id;
    this.lease = new RecordingLease(recorder, id, lease, openedNanos);
  }

  /**
   * Opens a stream whose recording on the target is named {@code name} and bounded by {@code
   * maxAge} and {@code maxSizeBytes} and held by {@code lease}; not started yet. On failure nothing
   * is left on the target.
   */
  static TargetRecording openStream(
      MBeanServerConnection mbeans,
      Path directory,
      String target,
      String name,
      Duration maxAge,
      long maxSizeBytes,
      Lease lease)
      throws IOException, JMException {
    NewRecordingCapture capture = new NewRecordingCapture(mbeans);
    long opened = System.nanoTime();
    RemoteRecordingStream stream = new RemoteRecordingStream(capture, directory);
    try {
      TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
      long id = capture.createdRecording();
      String state = recorder.find(id).map(TargetFlightRecorder.Recording::state).orElse("gone");
      if (!"NEW".equals(state)) {
        // Someone else already started or closed it: not the daemon's to name or bound.
        throw new IOException("the stream's new recording " + id + " is " + state + " already");
      }
      recorder.setOptions(id, options(name, maxAge, maxSizeBytes, lease));
      return new TargetRecording(recorder, new StreamFeed(stream, target), id, lease, opened);
    } catch (IOException | JMException | RuntimeException e) {
      // Closes the stream's own recording, whatever its id (the JDK kept it).
      stream.close();
      throw e;
    }
  }

  /**
   * Creates a recording read as chunks every {@code period} ({@link ChunkFeed}), named, bounded and
   * leased like a stream's; not started yet. On failure nothing is left on the target.
   */
  static TargetRecording openChunks(
      MBeanServerConnection mbeans,
      Path directory,
      String name,
      Duration maxAge,
      long maxSizeBytes,
      Lease lease,
      String target,
      String readCopyName,
      Duration period) {
    TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
    long opened = System.nanoTime();
    long id = recorder.newRecording();
    try {
      Map<String, String> options = options(name, maxAge, maxSizeBytes, lease);
      // On disk, so finished chunks exist to be read (an in-memory recording has none).
      options.put("disk", "true");
      recorder.setOptions(id, options);
      ChunkFeed feed =
          new ChunkFeed(target, recorder, id, readCopyName, directory, period, maxSizeBytes);
      return new TargetRecording(recorder, feed, id, lease, opened);
    } catch (RuntimeException e) {
      closeQuietly(recorder, id);
      throw e;
    }
  }

  /** The options that name, bound and lease one of the daemon's recordings (mutable). */
  static Map<String, String> options(String name, Duration maxAge, long maxSizeBytes, Lease lease) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("name", name);
    options.put("maxAge", maxAge.toSeconds() + " s");
    options.put("maxSize", Long.toString(maxSizeBytes));
    options.put("duration", RecordingLease.seconds(lease.length()));
    return options;
  }

  private static void closeQuietly(TargetFlightRecorder recorder, long id) {
    try {
      recorder.close(id);
    } catch (IOException | RuntimeException e) {
      // The lease stops it; a later connect closes it as a leftover.
    }
  }

  /**
   * Closes the recordings on the target that {@code owner} may close while watching {@code target}
   * through the recordings {@code live}: left behind by this daemon, or by any jvm-sentinel daemon
   * and stopped ({@link RecordingOwner#mayClose}). Returns what it closed.
   */
  static List<TargetFlightRecorder.Recording> closeLeftovers(
      MBeanServerConnection mbeans, RecordingOwner owner, String target, Set<Long> live)
      throws IOException, JMException {
    TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
    List<TargetFlightRecorder.Recording> closed = new ArrayList<>();
    for (TargetFlightRecorder.Recording recording : recorder.recordings()) {
      if (owner.mayClose(recording, target, live, Instant.now())) {
        recorder.close(recording.id());
        closed.add(recording);
      }
    }
    return closed;
  }

  EventFeed feed() {
    return feed;
  }

  long id() {
    return id;
  }

  /** Extends the lease when due ({@link RecordingLease#renewIfDue}). */
  void renewLeaseIfDue(long nowNanos) {
    lease.renewIfDue(nowNanos);
  }

  /** The recording's size as the target reports it, if the target still has it. */
  Optional<Long> size() throws IOException, JMException {
    return recorder.find(id).map(TargetFlightRecorder.Recording::size);
  }

  void close() {
    feed.close();
  }
}
