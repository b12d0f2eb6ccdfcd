package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertKey;
import io.jvmsentinel.daemon.jfr.DumpAdmission;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.jfr.RecordedEvidence;
import io.jvmsentinel.daemon.jfr.SnapshotOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When an alert fires, saves what the target recorded from {@code window} before it to a file
 * on-call can open in JDK Mission Control, and names the file in the alert only once the file is
 * whole.
 *
 * <p>Implementation notes. {@link #take} returns at once with what the alert says until the
 * snapshot settles ({@link #PENDING}, or why there is none). The target's dump thread reads the
 * window from the daemon's evidence recording on the target and keeps only the daemon's own events
 * ({@link JfrStreamSession#readEvidence}) into a {@code .part} file; {@link SnapshotCheck} then
 * opens it: it must parse, cover the window (from the later of the window's start and the
 * recording's start, to the firing, or a little after the recording's start when that is later:
 * {@link JfrStreamSession#EVIDENCE_MIN_RECORDED}) and hold the events that made the rule fire
 * ({@link SnapshotEvidence}). Only then is it renamed to its {@code .jfr} name; otherwise it is
 * deleted. Either way the outcome is counted ({@code jvm_sentinel_jfr_evidence_snapshots_total})
 * and queued for the engine ({@link #settled}), which names the file, or says why there is none, in
 * an update of the alert. The directory is capped in size ({@link SnapshotSpace}): when a
 * snapshot's read has its turn (at most {@code storage.maxConcurrentDumps} run at once), room for
 * the most it can take is reserved before it writes anything, the oldest snapshots deleted first to
 * make it, and held until it settles; a snapshot that cannot get room is skipped ({@link
 * SnapshotOutcome#NO_SPACE}) and the alert says so, at once when it could never fit.
 */
public final class EvidenceSnapshots implements AutoCloseable {
  // With the time stamp, a "-n" and ".jfr.part.raw", well below the 255 bytes of a file name.
  static final int NAME_MAX = 180;
  private static final Logger log = LoggerFactory.getLogger(EvidenceSnapshots.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** What an alert says of its snapshot while it is being written and checked. */
  public static final String PENDING = "being written; named here once checked whole";

  static final String OFF = "snapshots are off (detection.snapshots.directory is empty)";

  private static final Duration UNFINISHED_AFTER = Duration.ofMinutes(10);

  /**
   * A snapshot settled after its alert fired.
   *
   * @param alert the alert it was taken for
   * @param firedAt when that alert fired (a later alert of the same key is another one)
   * @param file the verified snapshot, or null
   * @param unavailable why there is none, or null
   */
  public record Settled(AlertKey alert, Instant firedAt, String file, String unavailable) {}

  private final Path directory;
  private final SnapshotSpace space;
  private final LongSupplier bytesPerDump;
  private final Duration window;
  private final Function<String, Optional<JfrStreamSession>> streams;
  private final Queue<Settled> settled = new ConcurrentLinkedQueue<>();

  /**
   * Snapshots of {@code window} into {@code directory} (none when it is null), at most {@code
   * maxDirectoryBytes} in all, each reserving {@code bytesPerDump} (read when the alert fires: it
   * follows the target count) while it is written, of the targets' streams, looked up by target
   * name (targets come and go).
   */
  public EvidenceSnapshots(
      Path directory,
      long maxDirectoryBytes,
      LongSupplier bytesPerDump,
      Duration window,
      Function<String, Optional<JfrStreamSession>> streams) {
    this.directory = directory;
    this.space = new SnapshotSpace(directory, maxDirectoryBytes);
    this.bytesPerDump = bytesPerDump;
    this.window = window;
    this.streams = streams;
    removeUnfinished();
  }

  public static EvidenceSnapshots disabled() {
    return new EvidenceSnapshots(null, 0, () -> 0, Duration.ZERO, name -> Optional.empty());
  }

  /**
   * Starts the snapshot of an alert that fired; returns what the alert says of it now: {@link
   * #PENDING} (the outcome follows in {@link #settled}), or why there is none.
   */
  public String take(ActiveAlert alert) {
    if (directory == null) {
      return OFF;
    }
    Optional<List<SnapshotEvidence.Need>> needs = SnapshotEvidence.of(alert);
    if (needs.isEmpty()) {
      return SnapshotEvidence.whyNone(alert);
    }
    JfrStreamSession stream = streams.apply(alert.target()).orElse(null);
    if (stream == null) {
      return "the target is not watched any more";
    }
    Optional<String> noJfr = stream.evidenceUnavailable();
    if (noJfr.isPresent()) {
      return "the daemon has no JFR recording of the target: " + noJfr.get();
    }
    long need = bytesPerDump.getAsLong();
    if (need > space.capBytes()) {
      // Never fits, whatever is deleted: say so in the alert at once.
      stream.countSnapshot(SnapshotOutcome.NO_SPACE);
      String why = noRoom(need);
      log.warn("JFR evidence of {} {}", alert.alertKey(), why);
      return why;
    }
    Path part;
    try {
      Files.createDirectories(directory);
      part = SnapshotFiles.reservePart(directory, baseName(alert));
    } catch (IOException e) {
      return "cannot write to " + directory + ": " + e;
    }
    Instant firedAt = alert.since();
    Instant from = firedAt.minus(window);
    // Room is made when the read has its turn (not while it waits), and held until it settles.
    AtomicReference<SnapshotSpace.Reservation> room = new AtomicReference<>();
    DumpAdmission admission =
        () ->
            room.set(space.reserve(need).orElseThrow(() -> new DumpAdmission.NoRoom(noRoom(need))));
    Optional<CompletableFuture<RecordedEvidence>> read =
        stream.readEvidence(from, firedAt, part, admission);
    if (read.isEmpty()) {
      deleteQuietly(part);
      return "not written: the target's snapshot queue was full"
          + " (jvm_sentinel_jfr_evidence_dropped_total)";
    }
    read.get()
        .whenComplete(
            (recorded, failure) -> {
              try {
                settled.add(settle(alert, needs.get(), stream, from, part, recorded, failure));
              } finally {
                Optional.ofNullable(room.get()).ifPresent(SnapshotSpace.Reservation::close);
              }
            });
    return PENDING;
  }

  /** The snapshots settled since the last call, oldest first. */
  public List<Settled> settled() {
    List<Settled> done = new ArrayList<>();
    for (Settled next = settled.poll(); next != null; next = settled.poll()) {
      done.add(next);
    }
    return done;
  }

  /** Checks what was read and publishes it, or deletes it; runs on the target's dump thread. */
  private Settled settle(
      ActiveAlert alert,
      List<SnapshotEvidence.Need> needs,
      JfrStreamSession stream,
      Instant from,
      Path part,
      RecordedEvidence recorded,
      Throwable failure) {
    AlertKey key = alert.alertKey();
    Instant firedAt = alert.since();
    if (failure != null) {
      deleteQuietly(part);
      if (unwrap(failure) instanceof DumpAdmission.NoRoom noRoom) {
        stream.countSnapshot(SnapshotOutcome.NO_SPACE);
        log.warn("JFR evidence of {} {}", key, noRoom.getMessage());
        return new Settled(key, firedAt, null, noRoom.getMessage());
      }
      return failed(stream, key, firedAt, "could not be read: " + cause(failure));
    }
    try {
      Instant coverFrom = later(from, recorded.recordedFrom());
      SnapshotCheck.Verdict verdict = SnapshotCheck.check(part, needs, coverFrom, recorded.to());
      if (!verdict.whole()) {
        deleteQuietly(part);
        stream.countSnapshot(SnapshotOutcome.EMPTY);
        log.warn("JFR evidence of {} not kept: {} ({})", key, verdict.why(), recorded.source());
        return new Settled(key, firedAt, null, "not kept: " + verdict.why());
      }
      Path file = SnapshotFiles.publish(part);
      stream.countSnapshot(SnapshotOutcome.WRITTEN);
      log.info(
          "saved JFR evidence {} ({} bytes, {} events from {} to {}; {} events of other"
              + " recordings left out; from {})",
          file,
          Files.size(file),
          verdict.eventCount(),
          verdict.from(),
          verdict.to(),
          recorded.droppedEvents(),
          recorded.source());
      return new Settled(key, firedAt, file.toString(), null);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(part);
      return failed(stream, key, firedAt, "could not be checked: " + e);
    }
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static Settled failed(
      JfrStreamSession stream, AlertKey key, Instant firedAt, String why) {
    stream.countSnapshot(SnapshotOutcome.FAILED);
    log.warn("JFR evidence of {} {}", key, why);
    return new Settled(key, firedAt, null, why);
  }

  private static String cause(Throwable failure) {
    Throwable cause = unwrap(failure);
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof UncheckedIOException unchecked ? unchecked.getCause() : cause;
  }

  /** What an alert says of a snapshot the disk budget has no room for. */
  private String noRoom(long need) {
    return "not written: no room in the disk budget ("
        + need
        + " bytes needed, "
        + space.reservedBytes()
        + " of "
        + space.capBytes()
        + " held by snapshots being written; storage.maxDiskMb)";
  }

  /**
   * {@code target-rule[-key]-time}, with anything but letters, digits, '.' and '-' as '_', and
   * {@code target-rule[-key]} cut to {@value #NAME_MAX} characters: a key may be a name the target
   * chose (a TLS peer), and a file name longer than 255 bytes cannot be created. {@link
   * SnapshotFiles} makes it unique and adds {@code .jfr}.
   */
  static String baseName(ActiveAlert alert) {
    String what =
        alert.target() + "-" + alert.ruleId() + (alert.key().isEmpty() ? "" : "-" + alert.key());
    if (what.length() > NAME_MAX) {
      what = what.substring(0, NAME_MAX);
    }
    return (what + "-" + STAMP.format(alert.since())).replaceAll("[^A-Za-z0-9.-]", "_");
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("cannot delete {}: {}", file, e.toString());
    }
  }

  /**
   * Deletes what a daemon stopped in the middle of a snapshot left behind; not recent files, which
   * another daemon sharing the directory may be writing (a snapshot takes seconds).
   */
  private void removeUnfinished() {
    if (directory == null || !Files.isDirectory(directory)) {
      return;
    }
    long before = System.currentTimeMillis() - UNFINISHED_AFTER.toMillis();
    try (Stream<Path> list = Files.list(directory)) {
      list.filter(f -> f.toString().endsWith(".part") || f.toString().endsWith(".part.raw"))
          .filter(f -> modified(f) < before)
          .forEach(EvidenceSnapshots::deleteQuietly);
    } catch (IOException e) {
      log.warn("cannot list {}: {}", directory, e.toString());
    }
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    // Each stream's dump thread ends with its stream.
  }
}
