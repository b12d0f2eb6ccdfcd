package io.jvmsentinel.daemon.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back memory the daemon no longer uses. Without {@code -Xms}/{@code -Xmx} the JVM starts
 * with 1/64 of the machine's memory as heap (384 MB on 24 GB) and G1 returns committed heap only
 * after a full or a concurrent collection, which a daemon that allocates a few hundred KB a second
 * may not need for hours: its RSS would then grow toward that initial heap as young collections
 * touch it. Until issue 27 the collection came by accident (the metaspace passing its first 21 MB
 * threshold started one about a second in); one explicit full collection once start-up is over
 * makes it deliberate.
 *
 * <p>Native memory the JVM frees (the JIT compiler's arenas, the JMX and JFR clients' buffers) the
 * C library keeps: about 35 MB after ten minutes, regrown within minutes of a trim. So the native
 * heap is trimmed after that collection and then every {@link #TRIM_EVERY}, through the JVM's own
 * {@code System.trim_native_heap} command (glibc only; elsewhere nothing happens), as the JVM's
 * {@code -XX:TrimNativeHeapInterval} would; when that flag is set, the JVM trims and the daemon
 * does not. Requests, not settings: {@code -XX:+DisableExplicitGC} turns the collection off, and
 * the heap never shrinks below {@code -Xms}.
 */
public final class MemoryGiveBack {
  private static final Logger log = LoggerFactory.getLogger(MemoryGiveBack.class);
  private static final String DIAGNOSTIC_COMMANDS = "com.sun.management:type=DiagnosticCommand";

  /** Long enough for the first connections and JFR streams (their metadata) to be set up. */
  public static final Duration START_UP = Duration.ofSeconds(20);

  /** A trim takes about a millisecond; the C library regrows 10 to 15 MB in the first minute. */
  public static final Duration TRIM_EVERY = Duration.ofMinutes(1);

  // A command-line flag, not manageable: read once.
  private static final boolean JVM_TRIMS = jvmTrims();

  private MemoryGiveBack() {}

  /** The heap before and after the start-up collection. */
  record Collected(MemoryUsage before, MemoryUsage after) {}

  /** Collects once and trims the native heap; logs what it did at debug level. */
  public static void afterStartUp() {
    Collected collected = collect();
    log.debug(
        "start-up over: heap committed {} -> {} MB, used {} -> {} MB; native heap: {}",
        collected.before().getCommitted() >> 20,
        collected.after().getCommitted() >> 20,
        collected.before().getUsed() >> 20,
        collected.after().getUsed() >> 20,
        trimUnlessTheJvmDoes());
  }

  /** Trims the native heap unless the JVM does it itself; logs the answer at trace level. */
  public static void periodically() {
    String answer = trimUnlessTheJvmDoes();
    log.trace("native heap: {}", answer);
  }

  private static String trimUnlessTheJvmDoes() {
    return JVM_TRIMS ? "trimmed by the JVM (-XX:TrimNativeHeapInterval)" : trimNativeHeap();
  }

  static Collected collect() {
    MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    System.gc();
    return new Collected(before, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage());
  }

  /** Whether {@code -XX:TrimNativeHeapInterval} (JDK 21.0.1 and later) is set above 0. */
  static boolean jvmTrims() {
    try {
      Object interval =
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new ObjectName("com.sun.management:type=HotSpotDiagnostic"),
                  "getVMOption",
                  new Object[] {"TrimNativeHeapInterval"},
                  new String[] {String.class.getName()});
      return !String.valueOf(((CompositeData) interval).get("value")).equals("0");
    } catch (JMException | RuntimeException e) {
      return false; // an older JVM: no such flag
    }
  }

  /** The JVM's answer to {@code System.trim_native_heap}, or why there was none. */
  static String trimNativeHeap() {
    try {
      Object answer =
          ManagementFactory.getPlatformMBeanServer()
              .invoke(new ObjectName(DIAGNOSTIC_COMMANDS), "systemTrimNativeHeap", null, null);
      return String.valueOf(answer).strip();
    } catch (JMException | RuntimeException e) {
      return "not trimmed (" + e.getClass().getSimpleName() + ")";
    }
  }
}
