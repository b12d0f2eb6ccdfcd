package io.jvmsentinel.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** What Linux tells about a process: CPU time ({@code /proc/<pid>/stat}) and RSS. */
final class Procs {
  private static final long CLOCK_TICKS = clockTicks();

  private Procs() {}

  /** utime + stime of the process (all its threads), in seconds. */
  static double cpuSeconds(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // The command name (field 2) may contain spaces: fields are counted after its ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
    long utime = Long.parseLong(fields[11]);
    long stime = Long.parseLong(fields[12]);
    return (utime + stime) / (double) CLOCK_TICKS;
  }

  /** The process's thread count ({@code Threads:} in its status). */
  static int threads(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("Threads:")) {
        return Integer.parseInt(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no Threads for " + pid);
  }

  /** VmRSS in MB. */
  static double rssMb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
      }
    }
    throw new IOException("no VmRSS for " + pid);
  }

  /**
   * Heap used and committed in MB from {@code jstat -gc} (reads the JVM's perf counters, no
   * attach), as {@code [used, committed]}; empty when jstat fails.
   */
  static double[] heapMb(java.nio.file.Path javaHome, long pid) {
    try {
      Process jstat =
          new ProcessBuilder(javaHome.resolve("bin/jstat").toString(), "-gc", Long.toString(pid))
              .redirectErrorStream(true)
              .start();
      List<String> lines = new String(jstat.getInputStream().readAllBytes()).lines().toList();
      jstat.waitFor(20, TimeUnit.SECONDS);
      if (lines.size() < 2) {
        return new double[0];
      }
      List<String> names = List.of(lines.get(0).trim().split(" +"));
      String[] values = lines.get(1).trim().split(" +");
      double used = 0;
      double committed = 0;
      for (String name : List.of("S0U", "S1U", "EU", "OU")) {
        used += Double.parseDouble(values[names.indexOf(name)]);
      }
      for (String name : List.of("S0C", "S1C", "EC", "OC")) {
        committed += Double.parseDouble(values[names.indexOf(name)]);
      }
      return new double[] {used / 1024, committed / 1024};
    } catch (IOException | RuntimeException e) {
      return new double[0];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new double[0];
    }
  }

  private static long clockTicks() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
      String out = new String(getconf.getInputStream().readAllBytes()).trim();
      getconf.waitFor();
      OptionalLong ticks = OptionalLong.of(Long.parseLong(out));
      return ticks.getAsLong();
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
