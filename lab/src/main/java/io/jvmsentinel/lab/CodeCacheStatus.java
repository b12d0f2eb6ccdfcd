package io.jvmsentinel.lab;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The JVM's own view of its code cache: its memory pools (one, or three when segmented), and the
 * DiagnosticCommand {@code compilerCodecache} (= {@code jcmd Compiler.codecache}), read in-process
 * so a scenario can size itself to the cache or announce the moment the JIT stops.
 */
final class CodeCacheStatus {

  private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

  private CodeCacheStatus() {}

  /** The {@code compilerCodecache} text, or an empty string where the command is missing. */
  static String text() {
    try {
      return (String)
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new ObjectName(DIAGNOSTIC_COMMAND),
                  "compilerCodecache",
                  new Object[] {new String[0]},
                  new String[] {String[].class.getName()});
    } catch (JMException e) {
      return "";
    }
  }

  /**
   * Whether compilation is disabled: JDK 17 prints {@code compilation: disabled}, JDK 21+ {@code
   * Compilation: disabled (...)}.
   */
  static boolean compilationDisabled(String text) {
    return text.toLowerCase(Locale.ROOT).contains("compilation: disabled");
  }

  /** The code cache's maximum in bytes, over its pools. */
  static long max() {
    return pools().stream().mapToLong(pool -> pool.getUsage().getMax()).sum();
  }

  /** Used share of the code cache's maximum, in percent, over its pools. */
  static double occupancyPercent() {
    long used = 0;
    long max = 0;
    for (MemoryPoolMXBean pool : pools()) {
      used += pool.getUsage().getUsed();
      max += pool.getUsage().getMax();
    }
    return max <= 0 ? 0 : 100.0 * used / max;
  }

  private static List<MemoryPoolMXBean> pools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.NON_HEAP)
        .filter(pool -> pool.getName().equals("CodeCache") || pool.getName().startsWith("CodeHeap"))
        .collect(Collectors.toList());
  }
}
