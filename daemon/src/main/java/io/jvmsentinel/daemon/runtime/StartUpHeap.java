package io.jvmsentinel.daemon.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back the memory that start-up used. Without {@code -Xms}/{@code -Xmx} the JVM starts with
 * 1/64 of the machine's memory as heap (384 MB on 24 GB) and G1 returns committed heap only after a
 * full or a concurrent collection, which a daemon that allocates a few hundred KB a second may not
 * need for hours: its RSS would then grow toward that initial heap as young collections touch it.
 * Until issue 27 the collection came by accident (the metaspace passing its first 21 MB threshold
 * started one about a second in); one explicit full collection once start-up is over makes it
 * deliberate. Then the native memory the JVM freed (the JIT compiler's arenas of start-up) goes
 * back too: the C library keeps it otherwise, through the JVM's own {@code System.trim_native_heap}
 * command (glibc only; elsewhere nothing happens). Requests, not settings: {@code
 * -XX:+DisableExplicitGC} turns the collection off, and the heap never shrinks below {@code -Xms}.
 */
public final class StartUpHeap {
  private static final Logger log = LoggerFactory.getLogger(StartUpHeap.class);

  /** Long enough for the first connections and JFR streams (their metadata) to be set up. */
  public static final Duration DELAY = Duration.ofSeconds(20);

  private StartUpHeap() {}

  /** Collects once and trims the native heap; logs what it did at debug level. */
  public static void release() {
    MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    System.gc();
    MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    log.debug(
        "start-up over: heap committed {} -> {} MB, used {} -> {} MB; native heap: {}",
        before.getCommitted() >> 20,
        after.getCommitted() >> 20,
        before.getUsed() >> 20,
        after.getUsed() >> 20,
        trimNativeHeap());
  }

  /** The JVM's answer to {@code System.trim_native_heap}, or why there was none. */
  static String trimNativeHeap() {
    try {
      Object answer =
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new ObjectName("com.sun.management:type=DiagnosticCommand"),
                  "systemTrimNativeHeap",
                  null,
                  null);
      return String.valueOf(answer).strip();
    } catch (JMException | RuntimeException e) {
      return "not trimmed (" + e.getClass().getSimpleName() + ")";
    }
  }
}
