package io.jvmsentinel.daemon.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back the heap that start-up used. Without {@code -Xms}/{@code -Xmx} the JVM starts with
 * 1/64 of the machine's memory as heap (384 MB on 24 GB) and G1 returns committed heap only after a
 * full or a concurrent collection, which a daemon that allocates a few hundred KB a second may not
 * need for hours: its RSS would then grow toward that initial heap as young collections touch it.
 * Until issue 27 the collection came by accident (the metaspace passing its first 21 MB threshold
 * started one about a second in); one explicit full collection once start-up is over makes it
 * deliberate. It is a request, not a setting: {@code -XX:+DisableExplicitGC} turns it off, and the
 * heap never shrinks below {@code -Xms}.
 */
public final class StartUpHeap {
  private static final Logger log = LoggerFactory.getLogger(StartUpHeap.class);

  /** Long enough for the first connections and JFR streams (their metadata) to be set up. */
  public static final Duration DELAY = Duration.ofSeconds(20);

  private StartUpHeap() {}

  /** Collects once; logs the committed heap before and after at debug level. */
  public static void release() {
    MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    System.gc();
    MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    log.debug(
        "start-up over: heap committed {} -> {} MB, used {} -> {} MB",
        before.getCommitted() >> 20,
        after.getCommitted() >> 20,
        before.getUsed() >> 20,
        after.getUsed() >> 20);
  }
}
