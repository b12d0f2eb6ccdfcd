package io.jvmsentinel.daemon.testing;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scrapes {@code /metrics} every 100 ms on its own thread while a fault runs, and keeps the slowest
 * answer and the first failure: the endpoint must stay fast whatever the target does.
 */
public final class ScrapeWatch implements AutoCloseable {
  private final DaemonHttp http;
  private final Thread thread;
  private final AtomicLong slowestMillis = new AtomicLong();
  private final AtomicLong scrapes = new AtomicLong();
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
  private volatile boolean running = true;

  private ScrapeWatch(DaemonHttp http) {
    this.http = http;
    this.thread = new Thread(this::run, "scrape-watch");
    thread.setDaemon(true);
  }

  public static ScrapeWatch start(DaemonHttp http) {
    ScrapeWatch watch = new ScrapeWatch(http);
    watch.thread.start();
    return watch;
  }

  private void run() {
    while (running) {
      long started = System.nanoTime();
      try {
        http.scrape();
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
      }
      slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
      scrapes.incrementAndGet();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  public long slowestMillis() {
    return slowestMillis.get();
  }

  public long scrapes() {
    return scrapes.get();
  }

  /** The first scrape that failed (an error status or no answer), if any. */
  public RuntimeException failure() {
    return failure.get();
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
