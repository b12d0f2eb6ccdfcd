package io.jvmsentinel.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Scrapes a {@code /metrics} URL at a fixed interval, as Prometheus would, from now on. */
final class Scraper implements AutoCloseable {
  private final ScheduledExecutorService timer;
  private final List<Double> millis = new ArrayList<>();
  private int failures;

  Scraper(BenchContext context, String url, java.time.Duration interval) {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-scraper");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(
        () -> {
          long start = System.nanoTime();
          boolean ok = context.get(url).map(r -> r.statusCode() == 200).orElse(false);
          double took = (System.nanoTime() - start) / 1e6;
          synchronized (this) {
            if (ok) {
              millis.add(took);
            } else {
              failures++;
            }
          }
        },
        0,
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  synchronized int scrapes() {
    return millis.size();
  }

  synchronized int failures() {
    return failures;
  }

  synchronized List<Double> millis() {
    return new ArrayList<>(millis);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(35, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
