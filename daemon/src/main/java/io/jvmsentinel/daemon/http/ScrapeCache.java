package io.jvmsentinel.daemon.http;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The {@code /metrics} body, rendered off the request path once it is large.
 *
 * <p>Rendering grows with the series: about 4 µs per line, 65 ms of CPU for the 1.8 MB of a daemon
 * watching 50 targets (bench/fleet-scale.sh), so a scrape that renders waits that long and every
 * scrape costs it. A body below {@link #LARGE_BYTES} (a sidecar's, or a daemon with a dozen
 * targets) is rendered per scrape as before, so it is always current.
 *
 * <p>A large body is served from here while younger than {@link #MAX_AGE}. Each scrape that is
 * served from here schedules one render for just before the next scrape is due: one interval (the
 * time since the scrape before) after this one, less {@link #LEAD} and twice the last render's
 * time, and never sooner than {@link #REFRESH_AFTER} after the last render. A scraper at a steady
 * interval so reads a body rendered about {@link #LEAD} before it asked and never waits for a
 * render; back-to-back scrapers cost at most one render per {@link #REFRESH_AFTER}; a first scrape,
 * or one after a pause longer than {@link #MAX_AGE}, renders on the request.
 */
final class ScrapeCache {
  /** Bodies from this size on are cached: about 15 targets at 36 KB each. */
  static final int LARGE_BYTES = 512 * 1024;

  static final Duration MAX_AGE = Duration.ofMinutes(2);
  static final Duration REFRESH_AFTER = Duration.ofSeconds(1);
  static final Duration LEAD = Duration.ofSeconds(1);

  /** Runs a task after a delay in nanoseconds. */
  interface Scheduler {
    void schedule(Runnable task, long delayNanos);
  }

  // One render at a time for all daemons in this JVM; the thread ends when idle.
  private static final Scheduler RENDERER = renderer();

  private record Body(byte[] bytes, long renderedAtNanos, long renderNanos) {}

  /** Per content type: the latest body, the last request and whether a render is scheduled. */
  private static final class Entry {
    volatile Body body;
    long lastRequestNanos = Long.MIN_VALUE;
    boolean scheduled;
  }

  private final Function<String, byte[]> render;
  private final LongSupplier nanoTime;
  private final Scheduler scheduler;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  ScrapeCache(Function<String, byte[]> render) {
    this(render, System::nanoTime, RENDERER);
  }

  /** With a clock and a scheduler of the test's. */
  ScrapeCache(Function<String, byte[]> render, LongSupplier nanoTime, Scheduler scheduler) {
    this.render = render;
    this.nanoTime = nanoTime;
    this.scheduler = scheduler;
  }

  /** The body in {@code contentType}, from the cache when it is large and young enough. */
  byte[] body(String contentType) {
    Entry entry = entries.computeIfAbsent(contentType, type -> new Entry());
    long now = nanoTime.getAsLong();
    long interval;
    synchronized (entry) {
      interval = entry.lastRequestNanos == Long.MIN_VALUE ? -1 : now - entry.lastRequestNanos;
      entry.lastRequestNanos = now;
    }
    Body cached = entry.body;
    if (cached == null || now - cached.renderedAtNanos() >= MAX_AGE.toNanos()) {
      return renderNow(contentType, entry).bytes();
    }
    if (interval >= 0) {
      scheduleRender(contentType, entry, cached, now, interval);
    }
    return cached.bytes();
  }

  private void scheduleRender(
      String contentType, Entry entry, Body cached, long now, long interval) {
    long dueAt = now + interval - LEAD.toNanos() - 2 * cached.renderNanos();
    long earliest = cached.renderedAtNanos() + REFRESH_AFTER.toNanos();
    long delay = Math.max(0, Math.max(dueAt, earliest) - now);
    synchronized (entry) {
      if (entry.scheduled) {
        return;
      }
      entry.scheduled = true;
    }
    try {
      scheduler.schedule(
          () -> {
            try {
              renderNow(contentType, entry);
            } finally {
              synchronized (entry) {
                entry.scheduled = false;
              }
            }
          },
          delay);
    } catch (RuntimeException e) {
      // Rejected: the cached body serves until it expires and a scrape renders it.
      synchronized (entry) {
        entry.scheduled = false;
      }
    }
  }

  private Body renderNow(String contentType, Entry entry) {
    long start = nanoTime.getAsLong();
    byte[] bytes = render.apply(contentType);
    Body body = new Body(bytes, start, nanoTime.getAsLong() - start);
    entry.body = bytes.length >= LARGE_BYTES ? body : null;
    return body;
  }

  private static Scheduler renderer() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("metrics-render"));
    executor.setKeepAliveTime(30, TimeUnit.SECONDS);
    executor.allowCoreThreadTimeOut(true);
    executor.setRemoveOnCancelPolicy(true);
    return (task, delayNanos) -> executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
  }
}
