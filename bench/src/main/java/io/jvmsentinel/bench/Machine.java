package io.jvmsentinel.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The machine and JVMs a run measured on, for the results. */
final class Machine {
  private Machine() {}

  static Map<String, Object> describe(BenchOptions options) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("cpus", Runtime.getRuntime().availableProcessors());
    map.put("cpu_model", cpuModel());
    map.put("memory_mb", memTotalMb());
    map.put("kernel", read("/proc/sys/kernel/osrelease"));
    map.put("load_average_at_start", loadAverage());
    map.put("target_java", javaVersion(options.labJavaHome()));
    map.put("daemon_java", javaVersion(options.daemonJavaHome()));
    map.put("daemon_jvm_flags", BenchContext.daemonFlags(options));
    return map;
  }

  static String oneLine(BenchOptions options) {
    return String.format(
        "%d CPUs (%s), %d MB; targets on Java %s, daemon on Java %s %s",
        Runtime.getRuntime().availableProcessors(),
        cpuModel(),
        memTotalMb(),
        javaVersion(options.labJavaHome()),
        javaVersion(options.daemonJavaHome()),
        String.join(" ", BenchContext.daemonFlags(options)));
  }

  /** The 1, 5 and 15 minute load averages: other work on a shared machine shows up here. */
  static Map<String, Object> loadAverage() {
    String[] parts = read("/proc/loadavg").split(" ");
    Map<String, Object> map = new LinkedHashMap<>();
    if (parts.length >= 3) {
      map.put("1m", Double.parseDouble(parts[0]));
      map.put("5m", Double.parseDouble(parts[1]));
      map.put("15m", Double.parseDouble(parts[2]));
    }
    return map;
  }

  private static String javaVersion(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          return line.substring("JAVA_VERSION=".length()).replace("\"", "");
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  private static String cpuModel() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
      return lines.stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memTotalMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return -1;
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file)).trim();
    } catch (IOException e) {
      return "";
    }
  }
}
