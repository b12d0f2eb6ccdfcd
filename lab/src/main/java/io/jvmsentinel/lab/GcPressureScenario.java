package io.jvmsentinel.lab;

import java.util.SplittableRandom;

/**
 * GC pressure: a large live set on a small heap, and allocation that keeps replacing parts of it.
 * The live set is {@value #LIVE_PERCENT}% of the maximum heap (so the launcher's {@code -Xmx}
 * decides its size), made of small linked objects that are expensive to mark and copy; every new
 * chunk replaces a random old one, so objects survive long enough to be copied and then die in the
 * old generation. Collections come back to back and pauses take a large share of wall-clock time.
 * {@code --rate} is the allocation rate in MB per second (default {@value #DEFAULT_RATE}).
 */
final class GcPressureScenario implements Scenario {

  static final int DEFAULT_RATE = 200;
  static final int LIVE_PERCENT = 60;
  private static final int CHUNK_BYTES = 16 * 1024;
  private static final int NODES_PER_CHUNK = 128;
  private static final long TICK_MILLIS = 10;

  private final int rate;

  GcPressureScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "gc-pressure";
  }

  @Override
  public String description() {
    return "keeps "
        + LIVE_PERCENT
        + "% of the max heap live and replaces it at --rate MB/s (default "
        + DEFAULT_RATE
        + "): GC pauses dominate (run with a small heap, e.g. -Xmx64m)";
  }

  /** A small linked structure: many objects per chunk, costly to mark and copy. */
  private static final class Node {
    final long[] payload;
    final Node next;

    Node(int longs, Node next) {
      this.payload = new long[longs];
      this.next = next;
    }
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    long maxHeap = Runtime.getRuntime().maxMemory();
    int slots = (int) Math.max(1, maxHeap / 100 * LIVE_PERCENT / CHUNK_BYTES);
    Node[] live = new Node[slots];
    for (int i = 0; i < slots; i++) {
      live[i] = chunk();
    }
    log.onset(
        "gc",
        "rate_mb",
        rate,
        "live_mb",
        (long) slots * CHUNK_BYTES / (1024 * 1024),
        "max_heap_mb",
        maxHeap / (1024 * 1024));
    SplittableRandom random = new SplittableRandom(42);
    long chunksPerTick = Math.max(1, (long) rate * 1024 * 1024 / CHUNK_BYTES * TICK_MILLIS / 1_000);
    long start = System.nanoTime();
    long done = 0;
    try {
      while (true) {
        long due = (System.nanoTime() - start) / 1_000_000 / TICK_MILLIS * chunksPerTick;
        if (due - done > chunksPerTick * (1_000 / TICK_MILLIS)) {
          done = due; // more than a second behind: keep the rate, drop the backlog
        }
        while (done < due) {
          if (Thread.interrupted()) {
            throw new InterruptedException();
          }
          live[random.nextInt(slots)] = chunk();
          done++;
        }
        Thread.sleep(TICK_MILLIS);
      }
    } finally {
      Blackhole.consume(live.length);
    }
  }

  private static Node chunk() {
    int longs = (CHUNK_BYTES / NODES_PER_CHUNK - 32) / 8;
    Node head = null;
    for (int i = 0; i < NODES_PER_CHUNK; i++) {
      head = new Node(longs, head);
    }
    return head;
  }
}
