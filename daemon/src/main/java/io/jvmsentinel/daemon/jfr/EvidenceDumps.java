package io.jvmsentinel.daemon.jfr;

import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes evidence dumps of one target's stream on a thread of their own, never the stream's: a dump
 * copies minutes of chunks and makes remote calls (up to a minute), and the stream's thread runs
 * the stall watchdog. One dump at a time, at most {@link #QUEUED} waiting; a dump asked for beyond
 * that is dropped, counted and logged (alerts that fire together want the same minutes of events;
 * one file holds them).
 */
final class EvidenceDumps implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EvidenceDumps.class);

  static final int QUEUED = 2;

  /** One dump; runs on the dump thread. */
  @FunctionalInterface
  interface Dump<T> {
    T write() throws IOException;
  }

  private final String target;
  private final Counter dropped;
  private final ThreadPoolExecutor executor;

  EvidenceDumps(String target, Counter dropped) {
    this.target = target;
    this.dropped = dropped;
    this.executor =
        new ThreadPoolExecutor(
            1,
            1,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED),
            runnable -> {
              Thread t = new Thread(runnable, "jfr-dump-" + target);
              t.setDaemon(true);
              return t;
            });
    // No idle thread per target between alerts.
    executor.allowCoreThreadTimeOut(true);
  }

  /**
   * Queues a dump to {@code file}; empty when the queue is full (the dump is dropped, counted in
   * {@code jvm_sentinel_jfr_evidence_dropped_total} and logged). The future fails with the dump's
   * {@link IOException} wrapped in an {@link UncheckedIOException}.
   */
  <T> Optional<CompletableFuture<T>> submit(Path file, Dump<T> dump) {
    try {
      return Optional.of(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return dump.write();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              executor));
    } catch (RejectedExecutionException e) {
      dropped.increment();
      log.warn(
          "target {}: JFR evidence {} dropped: {} dumps are already written or waiting"
              + " (jvm_sentinel_jfr_evidence_dropped_total)",
          target,
          file,
          QUEUED + 1);
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
