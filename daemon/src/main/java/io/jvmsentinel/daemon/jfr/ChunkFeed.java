package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.daemon.target.ConnectFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JFR without remote streaming (JDK 11, OpenJDK 8u262+): the daemon's own recording on the target,
 * read over the same JMX connection every {@code period}. Each read makes a stopped copy of the
 * recording ({@code cloneRecording(id, true)}, which ends the target's current chunk), reads the
 * chunks that ended since the last read ({@code openStream} with a start time, {@code readStream}),
 * closes the copy, and parses the chunks here with {@link RecordingFile}. The events go to the same
 * handlers a stream feeds, paced ({@link ChunkPacer}) so they arrive as smoothly as from a stream,
 * one period late.
 *
 * <p>Implementation notes. Chunks are identified by their start time: a chunk already read (a read
 * that overlaps the previous one at a chunk edge) is skipped, and so is one that ended before this
 * recording started, so a restarted feed never counts an event twice. The bytes come from a target
 * other people control: a read is capped ({@code maxReadBytes}), chunk headers are checked before
 * use ({@link ChunkHeader}), and a chunk the parser rejects is skipped and logged, never fatal.
 * Measured on a JDK 11 target (2 s period, 150 thread starts/s): the copy takes 15 to 25 ms, the
 * read 60 to 100 ms, about 130 KB a read, and the chunk rotation a JFRCheckpoint safepoint of 0.1
 * to 1 ms. Reads and parsing run on one thread of this feed, hand-out on another: a read of several
 * hundred ms on a loaded machine must not hold back the events already due (that made the rate the
 * rules saw stall, then jump). Handlers are only ever called from the hand-out thread.
 */
final class ChunkFeed implements EventFeed {
  private static final Logger log = LoggerFactory.getLogger(ChunkFeed.class);

  static final Duration RELEASE_EVERY = Duration.ofMillis(100);
  // The target keeps every stream it opened, with a buffer of the block size and a 50 KB read
  // buffer, for about 4 minutes after closeStream (StreamManager only destroys streams from its
  // cleanup timer; JDK 8u and 11): so blocks are small, and grow only with what a read brings.
  static final int MIN_BLOCK_SIZE = 16 * 1024;
  static final int MAX_BLOCK_SIZE = 1024 * 1024;
  private static final int BLOCKS_PER_READ = 8;
  private static final int MAX_PENDING = 200_000;
  private static final int REMEMBERED_CHUNKS = 64;

  /** An event and where it goes. */
  private record Delivery(Consumer<RecordedEvent> consumer, RecordedEvent event) {}

  private final String target;
  private final TargetFlightRecorder recorder;
  private final long recordingId;
  private final String copyName;
  private final Path directory;
  private final Duration period;
  private final long maxReadBytes;
  private final Map<String, Consumer<RecordedEvent>> consumers = new HashMap<>();
  private final ChunkPacer<Delivery> pacer = new ChunkPacer<>(MAX_PENDING);
  private final Deque<Long> readChunks = new ArrayDeque<>();
  private final ScheduledExecutorService thread;
  private final ScheduledExecutorService handOut;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Runnable onFlush = () -> {};

  // Confined to the feed thread (after start).
  private Instant recordingStart = Instant.EPOCH;
  private Instant readFrom = Instant.EPOCH;
  private long chunkNumber;
  private int blockSize = MIN_BLOCK_SIZE;
  private String lastFailure;

  /**
   * @param recordingId the daemon's recording, created, named and bounded, not started
   * @param copyName the name of the stopped copies each read makes ({@link
   *     RecordingOwner#readCopyName}), so a copy a killed daemon leaves behind can be closed
   * @param directory where chunks are written to be parsed
   * @param period how often the target's recording is read
   * @param maxReadBytes the most one read may bring; more is refused (a hostile or broken target)
   */
  ChunkFeed(
      String target,
      TargetFlightRecorder recorder,
      long recordingId,
      String copyName,
      Path directory,
      Duration period,
      long maxReadBytes) {
    this.target = target;
    this.recorder = recorder;
    this.recordingId = recordingId;
    this.copyName = copyName;
    this.directory = directory;
    this.period = period;
    this.maxReadBytes = maxReadBytes;
    this.thread = daemonThread("jfr-chunks-" + target);
    this.handOut = daemonThread("jfr-events-" + target);
  }

  private static ScheduledExecutorService daemonThread(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        runnable -> {
          Thread t = new Thread(runnable, name);
          t.setDaemon(true);
          return t;
        });
  }

  @Override
  public String kind() {
    return "chunks";
  }

  @Override
  public void setSettings(Map<String, String> settings) {
    recorder.setSettings(recordingId, settings);
  }

  @Override
  public void onEvent(String eventName, Consumer<RecordedEvent> consumer) {
    consumers.put(eventName, consumer);
  }

  @Override
  public void onFlush(Runnable action) {
    onFlush = action;
  }

  @Override
  public void start() throws IOException {
    recorder.start(recordingId);
    long startedMillis = 0;
    try {
      startedMillis =
          recorder
              .find(recordingId)
              .map(TargetFlightRecorder.Recording::startTimeMillis)
              .orElse(0L);
    } catch (javax.management.JMException e) {
      log.debug("target {}: cannot read the recording's start time: {}", target, e.toString());
    }
    Instant started = Instant.ofEpochMilli(startedMillis);
    thread.execute(
        () -> {
          recordingStart = started;
          readFrom = started;
        });
    long periodMillis = period.toMillis();
    thread.scheduleWithFixedDelay(this::read, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    handOut.scheduleAtFixedRate(
        this::release, RELEASE_EVERY.toMillis(), RELEASE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public Duration inherentDelay() {
    return period;
  }

  /** One read: the chunks recorded since the last one, parsed and queued for hand-out. */
  private void read() {
    try {
      byte[] bytes = readSince(readFrom);
      for (ChunkHeader chunk : ChunkHeader.split(bytes)) {
        accept(bytes, chunk);
      }
      lastFailure = null;
      onFlush.run();
    } catch (IOException | RuntimeException e) {
      // A broken connection is noticed by the JMX session, which then closes this feed; anything
      // else is retried next period from the same point, so nothing is skipped.
      String message = ConnectFailure.describe(e);
      if (!message.equals(lastFailure)) {
        log.warn("target {}: reading the JFR recording failed: {}", target, message);
        lastFailure = message;
      }
    }
  }

  /** The chunks of the recording that end after {@code from}, through a stopped copy. */
  private byte[] readSince(Instant from) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // openStream includes a chunk that ends exactly at the start time, and JDK 17 (not 11.0.13)
    // ends a chunk at the next one's start to the nanosecond: without the nanosecond, every read
    // brought the chunk read last time again (twice the bytes; bench/jfr-feeds.sh).
    recorder.readCopy(
        recorder.stoppedCopy(recordingId),
        copyName,
        from.plusNanos(1),
        null,
        blockSize,
        out,
        maxReadBytes);
    blockSize = blockSize(out.size());
    return out.toByteArray();
  }

  /** The block size for the next read: about an eighth of this one's bytes, within bounds. */
  static int blockSize(long lastReadBytes) {
    return (int)
        Math.max(MIN_BLOCK_SIZE, Math.min(MAX_BLOCK_SIZE, lastReadBytes / BLOCKS_PER_READ));
  }

  private void accept(byte[] bytes, ChunkHeader chunk) throws IOException {
    if (readChunks.contains(chunk.startNanos()) || chunk.end().isBefore(recordingStart)) {
      return; // Read before, or from before this recording: counting it again would double it.
    }
    readChunks.addLast(chunk.startNanos());
    if (readChunks.size() > REMEMBERED_CHUNKS) {
      readChunks.removeFirst();
    }
    if (chunk.end().isAfter(readFrom)) {
      readFrom = chunk.end();
    }
    if (!chunk.readable()) {
      throw new IOException(
          "JFR chunk format " + chunk.major() + "." + chunk.minor() + " cannot be read");
    }
    Path file = directory.resolve(String.format("chunk-%06d.jfr", ++chunkNumber));
    Files.write(
        file,
        Arrays.copyOfRange(bytes, chunk.offset(), (int) (chunk.offset() + chunk.size())),
        StandardOpenOption.CREATE_NEW);
    List<ChunkPacer.Timed<Delivery>> events = new ArrayList<>();
    try (RecordingFile recording = new RecordingFile(file)) {
      while (recording.hasMoreEvents()) {
        RecordedEvent event = recording.readEvent();
        Consumer<RecordedEvent> consumer = consumers.get(event.getEventType().getName());
        if (consumer != null) {
          events.add(new ChunkPacer.Timed<>(event.getEndTime(), new Delivery(consumer, event)));
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException("JFR chunk from " + chunk.start() + " cannot be parsed: " + e, e);
    } finally {
      Files.deleteIfExists(file);
    }
    pacer.add(System.nanoTime(), chunk.start(), Duration.ofNanos(chunk.durationNanos()), events);
  }

  /** Hands out the events that are due. */
  private void release() {
    deliver(pacer.release(System.nanoTime()));
  }

  private static void deliver(List<Delivery> due) {
    // The consumers count and log their own failures (EventDispatcher).
    due.forEach(delivery -> delivery.consumer().accept(delivery.event()));
  }

  /** Lets the running task finish (at most 5 s), cancels the scheduled ones. */
  private static void stop(ScheduledExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      executor.shutdownNow();
    }
  }

  /** Idempotent, like a stream's close. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    // No more reads; what was read is handed out before the feed goes: a storm pause must not
    // lose the storm's last seconds.
    stop(thread);
    handOut.execute(() -> deliver(pacer.drain()));
    stop(handOut);
    try {
      recorder.close(recordingId);
    } catch (IOException | RuntimeException e) {
      log.debug("target {}: closing the JFR recording failed: {}", target, e.toString());
    }
  }
}
