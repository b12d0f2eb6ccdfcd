package io.jvmsentinel.daemon.export;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The {@code /metrics} body, rendered off the request path once it is large.
 *
 * <p>Rendering grows with the series: about 4 µs per line, 50 ms for the 50 targets of a node agent
 * (bench/fleet-scale.sh), so a scrape that renders waits that long and every scrape costs it. A
 * body below {@link #LARGE_BYTES} (a sidecar's, or a daemon with a dozen targets) is rendered per
 * scrape as before, so it is always current. A large one is served from here while younger than
 * {@link #MAX_AGE}, and a scrape that finds it older than {@link #REFRESH_AFTER} starts one render
 * in the background for the next scrape. Prometheus scraping every 15 s so reads the body rendered
 * just after its previous scrape (values one scrape interval old, each target's JMX values being up
 * to one poll interval old anyway); back-to-back scrapers cost at most one render a second; a body
 * older than {@link #MAX_AGE} (no scrape for a while) is rendered on the request.
 */
final class ScrapeCache {
  /** Bodies from this size on are cached: about 15 targets at 36 KB each. */
  static final int LARGE_BYTES = 512 * 1024;

  static final Duration MAX_AGE = Duration.ofSeconds(30);
  static final Duration REFRESH_AFTER = Duration.ofSeconds(1);

  // One background render at a time for all daemons in this JVM; the thread ends when idle.
  private static final Executor RENDERER = renderer();

  private record Body(byte[] bytes, long renderedAtNanos) {}

  private final Function<String, byte[]> render;
  private final LongSupplier nanoTime;
  private final Executor executor;
  private final Map<String, Body> bodies = new ConcurrentHashMap<>();
  private final Set<String> refreshing = ConcurrentHashMap.newKeySet();

  ScrapeCache(Function<String, byte[]> render) {
    this(render, System::nanoTime, RENDERER);
  }

  /** With a clock and an executor of the test's. */
  ScrapeCache(Function<String, byte[]> render, LongSupplier nanoTime, Executor executor) {
    this.render = render;
    this.nanoTime = nanoTime;
    this.executor = executor;
  }

  /** The body in {@code contentType}, from the cache when it is large and young enough. */
  byte[] body(String contentType) {
    Body cached = bodies.get(contentType);
    if (cached != null) {
      long age = nanoTime.getAsLong() - cached.renderedAtNanos();
      if (age < MAX_AGE.toNanos()) {
        if (age >= REFRESH_AFTER.toNanos()) {
          refreshInBackground(contentType);
        }
        return cached.bytes();
      }
    }
    return renderNow(contentType);
  }

  private byte[] renderNow(String contentType) {
    long at = nanoTime.getAsLong();
    byte[] bytes = render.apply(contentType);
    if (bytes.length >= LARGE_BYTES) {
      bodies.put(contentType, new Body(bytes, at));
    } else {
      bodies.remove(contentType);
    }
    return bytes;
  }

  private void refreshInBackground(String contentType) {
    if (!refreshing.add(contentType)) {
      return;
    }
    try {
      executor.execute(
          () -> {
            try {
              renderNow(contentType);
            } finally {
              refreshing.remove(contentType);
            }
          });
    } catch (RuntimeException e) {
      // Rejected: the cached body is served until it expires and a scrape renders it.
      refreshing.remove(contentType);
    }
  }

  private static Executor renderer() {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            0,
            1,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread thread = new Thread(r, "metrics-render");
              thread.setDaemon(true);
              return thread;
            });
    return executor;
  }
}
