package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * A GC freeze: after {@code --pause} (default 30 s) of idling, {@code --phase} (default 20 s) of
 * back-to-back full collections over a large live set of small linked objects, then idle again with
 * the live set dropped. With the serial collector and a heap of a few GB each collection stops the
 * JVM for about a second, so the monitoring's JMX calls time out and it reconnects: the collections
 * that end meanwhile are never notified. Run with {@code -XX:+UseSerialGC -Xms3g -Xmx3g}. {@code
 * --rate} is the live set in MB (default {@value #DEFAULT_LIVE_MB}). Onsets {@code built}, {@code
 * freeze}, {@code thaw}.
 */
final class GcFreezeScenario implements Scenario {
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(30);
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(20);
  static final int DEFAULT_LIVE_MB = 1_200;
  // An Object[2] (24 bytes) holding a byte[16] (32 bytes) and the previous pair.
  static final int PAIR_BYTES = 56;

  private final Duration pause;
  private final Duration phase;
  private final int liveMb;
  private volatile Object[] live;

  GcFreezeScenario(LabOptions options) {
    this.pause = options.pause(DEFAULT_PAUSE);
    this.phase = options.phase(DEFAULT_PHASE);
    this.liveMb = options.rate(DEFAULT_LIVE_MB);
  }

  @Override
  public String name() {
    return "gc-freeze";
  }

  @Override
  public String description() {
    return "idle, then after --pause (default 30s) back-to-back full GCs for --phase (default 20s)"
        + " over a --rate MB live set (default "
        + DEFAULT_LIVE_MB
        + "), on the serial collector with a 3 GB heap";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    live = linkedPairs((int) ((long) liveMb * 1024 * 1024 / PAIR_BYTES));
    log.onset("built", "live_mb", liveMb);
    Thread.sleep(pause.toMillis());
    log.onset("freeze", "duration_ms", phase.toMillis());
    long end = System.nanoTime() + phase.toNanos();
    int collections = 0;
    while (System.nanoTime() < end) {
      System.gc();
      collections++;
    }
    live = null;
    log.onset("thaw", "collections", collections);
    while (true) {
      Thread.sleep(60_000);
    }
  }

  /** A chain of pairs: every object reachable only through the one before, costly to mark. */
  static Object[] linkedPairs(int pairs) {
    Object[] last = null;
    Object[] all = new Object[pairs];
    for (int i = 0; i < pairs; i++) {
      last = new Object[] {new byte[16], last};
      all[i] = last;
    }
    return all;
  }
}
