package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When an alert fires, saves the target's recent JFR events to a file on-call can open in JDK
 * Mission Control, and names the file in the alert. The stream writes it on its target's bounded
 * dump thread (the alert goes out at once, with the path the file will have; a dump that does not
 * fit the queue is dropped and the alert names no file); the directory is capped in size, oldest
 * snapshots deleted first.
 */
public final class EvidenceSnapshots implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EvidenceSnapshots.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Path directory;
  private final long maxDirectoryBytes;
  private final Function<String, Optional<JfrStreamSession>> streams;

  /** Snapshots into {@code directory}, or none when it is null, of a fixed set of streams. */
  public EvidenceSnapshots(
      Path directory, long maxDirectoryBytes, Map<String, JfrStreamSession> streams) {
    this(directory, maxDirectoryBytes, fixed(streams));
  }

  /** Snapshots of the streams of targets that come and go: looked up by target name. */
  public EvidenceSnapshots(
      Path directory,
      long maxDirectoryBytes,
      Function<String, Optional<JfrStreamSession>> streams) {
    this.directory = directory;
    this.maxDirectoryBytes = maxDirectoryBytes;
    this.streams = streams;
  }

  private static Function<String, Optional<JfrStreamSession>> fixed(
      Map<String, JfrStreamSession> streams) {
    Map<String, JfrStreamSession> copy = Map.copyOf(streams);
    return name -> Optional.ofNullable(copy.get(name));
  }

  public static EvidenceSnapshots disabled() {
    return new EvidenceSnapshots(null, 0, Map.of());
  }

  /** Starts saving a snapshot for an alert; returns the file path, or empty when not possible. */
  public Optional<String> take(String target, String ruleId, Instant at) {
    JfrStreamSession stream = streams.apply(target).orElse(null);
    if (directory == null || stream == null || !stream.streaming()) {
      return Optional.empty();
    }
    Path file = directory.resolve(target + "-" + ruleId + "-" + STAMP.format(at) + ".jfr");
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      log.warn("cannot save JFR evidence {}: {}", file, e.toString());
      return Optional.empty();
    }
    return stream
        .dump(file)
        .map(written -> written.whenComplete(this::saved))
        .map(f -> file.toString());
  }

  private void saved(Path file, Throwable failure) {
    if (failure != null) {
      Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
      log.warn("cannot save JFR evidence: {}", String.valueOf(cause));
      return;
    }
    try {
      log.info("saved JFR evidence {} ({} bytes)", file, Files.size(file));
      prune();
    } catch (IOException | RuntimeException e) {
      log.warn("cannot prune JFR evidence after {}: {}", file, e.toString());
    }
  }

  /** Deletes the oldest snapshots until the directory fits its cap. */
  synchronized void prune() throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(directory)) {
      files =
          list.filter(f -> f.toString().endsWith(".jfr"))
              .sorted(Comparator.comparing(EvidenceSnapshots::modified))
              .toList();
    }
    long total = 0;
    for (Path f : files) {
      total += Files.size(f);
    }
    for (Path f : files) {
      if (total <= maxDirectoryBytes) {
        break;
      }
      long size = Files.size(f);
      Files.deleteIfExists(f);
      total -= size;
      log.info("deleted old JFR evidence {} to stay under {} bytes", f, maxDirectoryBytes);
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
