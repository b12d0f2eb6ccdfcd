package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes many things at once under one deadline. Closing a target talks to it, and a hung target
 * holds its close for the call timeout or longer: one after another, ten hung targets would hold a
 * shutdown for minutes, past any orchestrator's grace period.
 */
public final class ParallelClose {
  private static final Logger log = LoggerFactory.getLogger(ParallelClose.class);

  private ParallelClose() {}

  /**
   * Closes every item, each on its own thread (one per item: the targets are a configured, bounded
   * list), and returns when all are closed or the deadline has passed.
   *
   * @return the names of the items still closing at the deadline (they are interrupted and left to
   *     the exiting JVM); empty when all closed in time
   */
  public static <T extends AutoCloseable> List<String> closeAll(
      List<T> items, Function<T, String> name, Duration deadline) {
    if (items.isEmpty()) {
      return List.of();
    }
    ExecutorService threads =
        Executors.newFixedThreadPool(items.size(), DaemonThreads.named("close"));
    List<Callable<Void>> closes = new ArrayList<>();
    for (T item : items) {
      closes.add(
          () -> {
            item.close();
            return null;
          });
    }
    List<String> late = new ArrayList<>();
    try {
      List<Future<Void>> results =
          threads.invokeAll(closes, deadline.toMillis(), TimeUnit.MILLISECONDS);
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i).isCancelled()) {
          late.add(name.apply(items.get(i)));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      items.forEach(item -> late.add(name.apply(item)));
    } finally {
      threads.shutdownNow();
    }
    if (!late.isEmpty()) {
      log.warn(
          "not closed within {} ms (hung, left to the exiting JVM): {}", deadline.toMillis(), late);
    }
    return late;
  }
}
