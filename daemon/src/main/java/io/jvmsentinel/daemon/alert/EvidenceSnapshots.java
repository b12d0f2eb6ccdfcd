package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When an alert fires, saves the target's recent JFR events to a file on-call can open in JDK
 * Mission Control, and names the file in the alert. Writing happens on its own thread (the alert
 * goes out at once, with the path the file will have); the directory is capped in size, oldest
 * snapshots deleted first. At most {@value #QUEUE} requests wait while one is written (a dump can
 * take up to a minute, an alert storm fires many): more are dropped, counted and logged, and their
 * alerts go out without a snapshot path.
 */
public final class EvidenceSnapshots implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EvidenceSnapshots.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Path directory;
  private final long maxDirectoryBytes;
  private final Map<String, Source> streams;
  static final int QUEUE = 16;

  /** Where one target's recent JFR events come from: its stream. */
  public interface Source {
    boolean streaming();

    /** Writes the events the stream holds locally to {@code file}. */
    void dump(Path file) throws IOException;

    static Source of(JfrStreamSession stream) {
      return new Source() {
        @Override
        public boolean streaming() {
          return stream.streaming();
        }

        @Override
        public void dump(Path file) throws IOException {
          stream.dump(file);
        }
      };
    }
  }

  private final ThreadPoolExecutor writer;
  private final Counter dropped;

  /** Snapshots into {@code directory}, or none when it is null. */
  public EvidenceSnapshots(
      Path directory, long maxDirectoryBytes, Map<String, Source> streams, MeterRegistry registry) {
    this.directory = directory;
    this.maxDirectoryBytes = maxDirectoryBytes;
    this.streams = Map.copyOf(streams);
    this.writer =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE),
            runnable -> {
              Thread t = new Thread(runnable, "evidence-snapshots");
              t.setDaemon(true);
              return t;
            });
    this.dropped = Metric.SENTINEL_SNAPSHOTS_DROPPED.counter(registry, Tags.empty());
  }

  public static EvidenceSnapshots disabled() {
    return new EvidenceSnapshots(null, 0, Map.of(), new SimpleMeterRegistry());
  }

  /** Starts saving a snapshot for an alert; returns the file path, or empty when not possible. */
  public Optional<String> take(String target, String ruleId, Instant at) {
    Source stream = streams.get(target);
    if (directory == null || stream == null || !stream.streaming()) {
      return Optional.empty();
    }
    Path file = directory.resolve(target + "-" + ruleId + "-" + STAMP.format(at) + ".jfr");
    try {
      writer.execute(() -> write(stream, file));
    } catch (RejectedExecutionException e) {
      dropped.increment();
      log.warn(
          "JFR evidence {} not saved: {} snapshots already wait for the writer (counted in"
              + " jvm_sentinel_snapshots_dropped_total; {} dropped so far)",
          file,
          QUEUE,
          (long) dropped.count());
      return Optional.empty();
    }
    return Optional.of(file.toString());
  }

  private void write(Source stream, Path file) {
    try {
      Files.createDirectories(directory);
      stream.dump(file);
      log.info("saved JFR evidence {} ({} bytes)", file, Files.size(file));
      prune();
    } catch (IOException | RuntimeException e) {
      log.warn("cannot save JFR evidence {}: {}", file, e.toString());
    }
  }

  /** Deletes the oldest snapshots until the directory fits its cap. */
  void prune() throws IOException {
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
    writer.shutdownNow();
  }
}
