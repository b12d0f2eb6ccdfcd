package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.target.ConnectFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The evidence of one target that alerts' snapshots read: the daemon's evidence recording on the
 * target ({@link EvidenceRecording}: it keeps the snapshot window across the feed's chunk
 * rotations), started, leased and closed by the session thread, and the snapshot reads on the
 * target's dump thread ({@link EvidenceDumps}), which fall back to a snapshot of the target's
 * running recordings.
 */
final class TargetEvidence implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  /** How much longer than a snapshot's window the evidence recording keeps chunks. */
  private static final Duration EVIDENCE_MARGIN = Duration.ofMinutes(1);

  private static final Duration EVIDENCE_RETRY = Duration.ofSeconds(2);

  /**
   * Events recorded only so that evidence snapshots hold them, read by no handler: GcOverhead
   * judges GC notifications over JMX, and its snapshot shows the collections.
   */
  static final Map<String, String> EVIDENCE_ONLY =
      Map.of("jdk.GarbageCollection#enabled", "true", "jdk.GarbageCollection#threshold", "0 ms");

  /** How long a snapshot waits for an evidence recording that is starting. */
  static final Duration EVIDENCE_START_WAIT = Duration.ofSeconds(30);

  /** The least a snapshot holds after the evidence recording started (CodeCacheStatistics: 5 s). */
  static final Duration EVIDENCE_MIN_RECORDED = Duration.ofSeconds(10);

  private final String target;
  private final JfrConfig config;
  private final RecordingOwner owner;
  private final Duration window;
  private final Clock clock;
  private final EvidenceDumps dumps;
  private final DiskBudget budget;
  private final DumpLimit dumpLimit;
  private final Supplier<MBeanServerConnection> connection;
  private final Supplier<StreamState> state;

  // Written by the session thread only; the dump thread reads them.
  private volatile EvidenceRecording evidence;
  private volatile Set<String> events = Set.of();

  /**
   * @param window the snapshot window; zero: snapshots off, no evidence recording
   * @param connection the target's JMX connection now, null while disconnected
   * @param state the feed's state, for the reason a read fails
   */
  TargetEvidence(
      String target,
      JfrConfig config,
      RecordingOwner owner,
      Duration window,
      Clock clock,
      JfrStreamMeters meters,
      LocalJfrStorage storage,
      Supplier<MBeanServerConnection> connection,
      Supplier<StreamState> state) {
    this.target = target;
    this.config = config;
    this.owner = owner;
    this.window = window;
    this.clock = clock;
    this.dumps = new EvidenceDumps(target, meters.evidenceDropped());
    this.budget = storage.budget();
    this.dumpLimit = storage.dumps();
    this.connection = connection;
    this.state = state;
  }

  /** Whether snapshots are on. */
  boolean enabled() {
    return !window.isZero();
  }

  /** Whether the evidence recording runs. */
  boolean recording() {
    return evidence != null;
  }

  /** The evidence recording's id on the target, null when none runs. */
  Long recordingId() {
    EvidenceRecording kept = evidence;
    return kept == null ? null : kept.id();
  }

  /**
   * A feed started with {@code settings}: snapshots keep only their events; starts the evidence
   * recording when none runs.
   */
  void feedStarted(Map<String, String> settings) {
    events = eventNames(settings);
    start();
  }

  /** Starts the evidence recording when snapshots are on and none runs; a failure is logged. */
  void start() {
    if (window.isZero() || evidence != null) {
      return;
    }
    try {
      evidence =
          EvidenceRecording.start(
              connection.get(),
              owner.evidenceRecordingName(target),
              owner.readCopyName(target),
              window.plus(EVIDENCE_MARGIN),
              budget.streamBytesPerTarget(),
              TargetRecording.Lease.DEFAULT);
    } catch (IOException | JMException | RuntimeException e) {
      log.warn(
          "target {}: cannot start the JFR evidence recording (snapshots then read the target's"
              + " other recordings): {}",
          target,
          ConnectFailure.describe(e));
    }
  }

  void renewLease() {
    EvidenceRecording kept = evidence;
    if (kept == null) {
      return;
    }
    try {
      kept.renewLeaseIfDue(System.nanoTime());
    } catch (RuntimeException e) {
      log.debug("target {}: renewing the evidence recording's lease failed: {}", target, e);
    }
  }

  /** Closes the evidence recording (the connection went, or the daemon stops). */
  void closeRecording() {
    EvidenceRecording kept = evidence;
    evidence = null;
    if (kept == null) {
      return;
    }
    try {
      kept.close();
    } catch (IOException | RuntimeException e) {
      // Gone with the connection; its lease stops it, a later connect closes it.
      log.debug("target {}: closing the evidence recording failed: {}", target, e.toString());
    }
  }

  /**
   * Why no snapshot can be read, or empty when one can; {@code feedRuns}: whether the feed's
   * recording runs (a snapshot of it can be read).
   */
  Optional<String> unavailable(boolean feedRuns) {
    if (evidence != null || feedRuns) {
      return Optional.empty();
    }
    if (connection.get() == null) {
      return Optional.of("the target is not connected");
    }
    StreamState now = state.get();
    boolean starting = config.enabled() && enabled() && now.unavailableReason() == null;
    return starting ? Optional.empty() : Optional.of(now.describe());
  }

  /**
   * Starts writing what the target recorded from {@code from} to {@code to} to {@code file}, only
   * the daemon's own events ({@link EvidenceEventFilter}), on this target's dump thread ({@link
   * EvidenceDumps}); empty when the dump queue is full. The read waits for an evidence recording
   * that is starting ({@link #EVIDENCE_START_WAIT}), and until {@code to}, or {@link
   * #EVIDENCE_MIN_RECORDED} after the recording started when that is later: an alert that fires as
   * the daemon connects (a code cache already full) gets the periodic events that show its state,
   * not the fraction of a second recorded before it. Read from the evidence recording ({@link
   * EvidenceRecording}), else from a snapshot of the target's running recordings, and once again
   * after a failure (a call that timed out on a busy target); the future fails with the reason when
   * neither can be read. Once the read has its turn among all targets' ({@link DumpLimit}) it asks
   * {@code admission}, which may refuse it ({@link DumpAdmission.NoRoom}).
   */
  Optional<CompletableFuture<RecordedEvidence>> read(
      Instant from, Instant to, Path file, DumpAdmission admission) {
    return dumps.submit(file, () -> write(from, to, file, admission));
  }

  private RecordedEvidence write(Instant from, Instant to, Path file, DumpAdmission admission)
      throws IOException {
    Path raw = file.resolveSibling(file.getFileName() + ".raw");
    try {
      for (long waited = 0;
          evidence == null && connection.get() != null && waited < EVIDENCE_START_WAIT.toMillis();
          waited += 250) {
        pause(Duration.ofMillis(250));
      }
      EvidenceRecording kept = evidence;
      Instant least = kept == null ? null : kept.started().plus(EVIDENCE_MIN_RECORDED);
      if (least != null && least.isAfter(to)) {
        to = least;
      }
      pause(Duration.between(clock.instant(), to));
      Instant until = to;
      // One of storage.maxConcurrentDumps over all targets; the waits above hold no turn.
      return dumpLimit.run(
          () -> {
            admission.admit();
            return readAndFilter(from, until, raw, file);
          });
    } catch (IllegalArgumentException e) {
      throw new IOException("the target's JFR data is malformed: " + e.getMessage(), e);
    } finally {
      Files.deleteIfExists(raw);
    }
  }

  private RecordedEvidence readAndFilter(Instant from, Instant to, Path raw, Path file)
      throws IOException {
    RawRead read;
    try {
      read = readRaw(from, to, raw);
    } catch (IOException e) {
      if (connection.get() == null) {
        throw e;
      }
      log.debug("target {}: reading evidence failed, once more: {}", target, e.toString());
      pause(EVIDENCE_RETRY);
      read = readRaw(from, to, raw);
    }
    EvidenceEventFilter.Result filtered = EvidenceEventFilter.filter(raw, file, events);
    return new RecordedEvidence(
        file,
        read.recordedFrom(),
        to,
        read.source(),
        filtered.keptEvents(),
        filtered.droppedEvents());
  }

  private record RawRead(Instant recordedFrom, String source) {}

  private static void pause(Duration duration) throws IOException {
    if (duration.isNegative() || duration.isZero()) {
      return;
    }
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: the daemon is stopping", e);
    }
  }

  private RawRead readRaw(Instant from, Instant to, Path raw) throws IOException {
    MBeanServerConnection mbeans = connection.get();
    if (mbeans == null) {
      throw new IOException("the target is not connected");
    }
    long maxBytes = budget.streamBytesPerTarget();
    EvidenceRecording kept = evidence;
    String failure = "there is no evidence recording (" + state.get().describe() + ")";
    if (kept != null) {
      try (OutputStream out = Files.newOutputStream(raw)) {
        kept.read(from, to, out, maxBytes);
        return new RawRead(kept.started(), "the daemon's evidence recording");
      } catch (IOException | RuntimeException e) {
        failure = "reading the evidence recording failed: " + ConnectFailure.describe(e);
      }
    }
    // What the target's running recordings hold: after a failed start of the evidence recording,
    // or if someone closed it.
    try (OutputStream out = Files.newOutputStream(raw)) {
      TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
      long snapshot = recorder.takeSnapshot();
      Instant started =
          Instant.ofEpochMilli(
              recorder
                  .find(snapshot)
                  .map(TargetFlightRecorder.Recording::startTimeMillis)
                  .orElse(0L));
      recorder.readCopy(snapshot, owner.readCopyName(target), from, to, 1 << 20, out, maxBytes);
      return new RawRead(started, "a snapshot of the target's recordings (" + failure + ")");
    } catch (IOException | JMException | RuntimeException e) {
      throw new IOException(
          failure
              + "; a snapshot of the target's recordings failed too: "
              + ConnectFailure.describe(e),
          e);
    }
  }

  /** The event names of a settings map ({@code jdk.ThreadStart#enabled} and the like). */
  static Set<String> eventNames(Map<String, String> settings) {
    Set<String> names = new HashSet<>();
    settings.keySet().forEach(key -> names.add(key.substring(0, Math.max(0, key.indexOf('#')))));
    names.remove("");
    return Set.copyOf(names);
  }

  /** Stops the dump thread (dumps under way are interrupted). */
  @Override
  public void close() {
    dumps.close();
  }
}
