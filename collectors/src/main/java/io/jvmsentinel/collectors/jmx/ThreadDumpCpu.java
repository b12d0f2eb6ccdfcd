package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.support.CompilerCpu;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the CPU time of the JIT compiler threads out of a HotSpot thread dump (DiagnosticCommand
 * {@code threadPrint}, JDK 11+), whose thread lines carry {@code cpu=<ms>ms}: the only JMX view of
 * compiler threads, which ThreadMXBean never lists.
 */
public final class ThreadDumpCpu {
  private static final Pattern THREAD_LINE =
      Pattern.compile("^\"([^\"]+)\".*?\\bcpu=([0-9]+(?:\\.[0-9]+)?)ms", Pattern.MULTILINE);

  private ThreadDumpCpu() {}

  /** Cumulative CPU milliseconds per compiler ({@code c1}, {@code c2}, {@code sweeper}). */
  public static Map<String, Double> compilerMillis(String threadDump) {
    Map<String, Double> millis = new HashMap<>();
    Matcher matcher = THREAD_LINE.matcher(threadDump);
    while (matcher.find()) {
      String compiler = CompilerCpu.compilerOf(matcher.group(1));
      if (compiler != null) {
        millis.merge(compiler, Double.parseDouble(matcher.group(2)), Double::sum);
      }
    }
    return millis;
  }
}
