package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A healthy service whose request threads read a shared cache that is rebuilt under its lock now
 * and then: {@code --threads} request threads (default {@value #DEFAULT_THREADS}) look up entries
 * in a {@link RefreshedCache} ({@code synchronized}, each lookup a few microseconds), and every
 * {@code --pause} (default 30 s) a refresher thread rebuilds it while holding the lock, fetching
 * {@value #ENTRIES} entries from a slow backend one round trip of {@value #BACKEND_MILLIS} ms at a
 * time (about 3.5 s). During a refresh every request thread blocks on the cache; between refreshes
 * nobody waits. Onsets {@code steady} (the service), then {@code refresh} with its number each
 * time.
 */
final class LockRefreshBurstScenario implements Scenario {

  static final int DEFAULT_THREADS = 16;
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(30);
  static final int ENTRIES = 140;
  static final long BACKEND_MILLIS = 25;
  private static final long REQUEST_PAUSE_MILLIS = 20;

  private final LabOptions options;
  private final int threads;
  private final Duration pause;

  LockRefreshBurstScenario(LabOptions options) {
    this.options = options;
    this.threads = options.threads(DEFAULT_THREADS);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "lock-refresh-burst";
  }

  @Override
  public String description() {
    return "healthy, and --threads request threads (default "
        + DEFAULT_THREADS
        + ") on a cache that a refresher rebuilds under its lock from a slow backend every"
        + " --pause (default 30s), about 3.5 s: all requests blocked meanwhile";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    List<Thread> workers = new ArrayList<>();
    try (SlowPeer backend = new SlowPeer(BACKEND_MILLIS)) {
      RefreshedCache cache = new RefreshedCache(backend.port(), ENTRIES);
      cache.refresh();
      for (int i = 0; i < threads; i++) {
        long seed = i * 7_919L;
        workers.add(LabThreads.daemon("lab-request-" + i, () -> serve(cache, seed)));
      }
      workers.forEach(Thread::start);
      for (long refresh = 1; ; refresh++) {
        Thread.sleep(pause.toMillis());
        log.onset("refresh", "number", refresh, "entries", ENTRIES, "backend_ms", BACKEND_MILLIS);
        cache.refresh();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      workers.forEach(Thread::interrupt);
      service.interrupt();
    }
  }

  private static void serve(RefreshedCache cache, long seed) {
    long sink = 0;
    try {
      for (long request = seed; !Thread.currentThread().isInterrupted(); request++) {
        sink += cache.lookup((int) (request % ENTRIES)) + CpuWork.tiny(request);
        Thread.sleep(REQUEST_PAUSE_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Blackhole.consume(sink);
  }
}
