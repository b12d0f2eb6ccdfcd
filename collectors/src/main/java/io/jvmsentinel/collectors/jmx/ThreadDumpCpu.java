package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.support.CompilerCpu;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the CPU time of the JIT compiler threads out of a HotSpot thread dump (DiagnosticCommand
 * {@code threadPrint}), whose thread lines carry {@code cpu=<ms>ms} since JDK 11: the only JMX view
 * of compiler threads, which ThreadMXBean never lists.
 *
 * <p>JDK 8 prints the same thread lines without CPU times ({@code Thread::print_on} in jdk8u {@code
 * hotspot/src/share/vm/runtime/thread.cpp} writes {@code os_prio}, {@code tid}, {@code nid} and the
 * state; jdk11u's adds {@code cpu=} and {@code elapsed=}): its compiler threads ({@code C2
 * CompilerThread0}, {@code C1 CompilerThread2}, numbered on from the C2 ones) are found, but
 * without a time, which {@link Reading#cpuTimesMissing()} reports.
 */
public final class ThreadDumpCpu {
  private static final Pattern THREAD_LINE =
      Pattern.compile("^\"([^\"]+)\"(.*)$", Pattern.MULTILINE);
  // At most 15 integer digits (31,000 years of CPU): a longer number from a target is not a time.
  private static final Pattern CPU = Pattern.compile("\\bcpu=([0-9]{1,15}(?:\\.[0-9]{1,9})?)ms\\b");

  /**
   * What one dump says about the compiler threads.
   *
   * @param compilerMillis cumulative CPU milliseconds per compiler ({@code c1}, {@code c2}, {@code
   *     sweeper}) of the compiler threads that carry a time
   * @param compilerThreads compiler threads in the dump, with a time or without
   */
  public record Reading(Map<String, Double> compilerMillis, int compilerThreads) {
    public Reading {
      compilerMillis = Map.copyOf(compilerMillis);
    }

    /** Compiler threads are there but carry no time (before JDK 11): their CPU is unknown. */
    public boolean cpuTimesMissing() {
      return compilerThreads > 0 && compilerMillis.isEmpty();
    }
  }

  private ThreadDumpCpu() {}

  /** Cumulative CPU milliseconds per compiler ({@code c1}, {@code c2}, {@code sweeper}). */
  public static Map<String, Double> compilerMillis(String threadDump) {
    return read(threadDump).compilerMillis();
  }

  public static Reading read(String threadDump) {
    Map<String, Double> millis = new HashMap<>();
    int compilerThreads = 0;
    Matcher line = THREAD_LINE.matcher(threadDump == null ? "" : threadDump);
    while (line.find()) {
      String compiler = CompilerCpu.compilerOf(line.group(1));
      if (compiler == null) {
        continue;
      }
      compilerThreads++;
      Matcher cpu = CPU.matcher(line.group(2));
      if (cpu.find()) {
        millis.merge(compiler, Double.parseDouble(cpu.group(1)), Double::sum);
      }
    }
    return new Reading(millis, compilerThreads);
  }
}
