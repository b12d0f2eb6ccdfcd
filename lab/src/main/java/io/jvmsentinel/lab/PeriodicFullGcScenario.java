package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * A healthy service with a large cache and a library that asks for a full GC now and then (RMI's
 * distributed GC with {@code sun.rmi.dgc.server.gcInterval}, a cache reload followed by {@code
 * System.gc()}): the {@code healthy} service throughout, beside a {@code --rate} MB live set
 * (default {@value #DEFAULT_LIVE_MB}) of small linked objects, and every {@code --pause} (default
 * 30 s) one {@code System.gc()}. With {@code -XX:+UseSerialGC -Xms3g -Xmx3g} each stops the JVM for
 * about a second: long enough to time out a monitoring call of 500 ms. The {@value #LONG_AT}rd
 * time, a cache reload asks for {@value #LONG_COLLECTIONS} in a row (until memory settles, as some
 * libraries do), a freeze of a few seconds. Around 2-3% of the wall time in GC, 8% at most over a
 * minute. Onsets {@code built}, then {@code full-gc number=N collections=C duration_ms=D}.
 */
final class PeriodicFullGcScenario implements Scenario {
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(30);
  static final int DEFAULT_LIVE_MB = 1_200;
  static final int LONG_AT = 3;
  static final int LONG_COLLECTIONS = 4;

  private final LabOptions options;
  private final Duration pause;
  private final int liveMb;
  private volatile Object[] cache;

  PeriodicFullGcScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(DEFAULT_PAUSE);
    this.liveMb = options.rate(DEFAULT_LIVE_MB);
  }

  @Override
  public String name() {
    return "periodic-full-gc";
  }

  @Override
  public String description() {
    return "healthy beside a --rate MB cache (default "
        + DEFAULT_LIVE_MB
        + "), System.gc() every --pause (default 30s), 4 in a row the 3rd time: run with"
        + " -XX:+UseSerialGC -Xms3g -Xmx3g";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    cache =
        GcFreezeScenario.linkedPairs(
            (int) ((long) liveMb * 1024 * 1024 / GcFreezeScenario.PAIR_BYTES));
    log.onset("built", "live_mb", liveMb);
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      for (int number = 1; ; number++) {
        Thread.sleep(pause.toMillis());
        int collections = number == LONG_AT ? LONG_COLLECTIONS : 1;
        long start = System.nanoTime();
        for (int i = 0; i < collections; i++) {
          System.gc();
        }
        log.onset(
            "full-gc",
            "number",
            number,
            "collections",
            collections,
            "duration_ms",
            (System.nanoTime() - start) / 1_000_000,
            "cache_pairs",
            cache.length);
      }
    } finally {
      service.interrupt();
    }
  }
}
