package io.jvmsentinel.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark that lives in a shell script under {@code bench/} (storm cost, event capacity, each
 * also runnable alone): runs it with this run's JVMs and output directory and reads back its
 * summary lines, {@code median <mode> key=value ...}, as figures per mode.
 */
final class BenchScript {
  private BenchScript() {}

  /** The medians the script printed, by mode, in its order; values as the script wrote them. */
  static Map<String, Map<String, Object>> run(
      BenchContext c, String script, Duration timeout, List<String> args) throws Exception {
    return run(c, script, timeout, args, Map.of());
  }

  static Map<String, Map<String, Object>> run(
      BenchContext c, String script, Duration timeout, List<String> args, Map<String, String> env)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(c.options.root().resolve(script).toString());
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(c.options.root().toFile()).redirectErrorStream(true);
    // The scripts run `java` from the PATH for the lab target: this run's target JDK.
    Path labBin = c.options.labJavaHome().resolve("bin");
    builder.environment().put("PATH", labBin + ":" + System.getenv().getOrDefault("PATH", ""));
    builder.environment().put("BENCH_OUT", c.options.out().toString());
    builder
        .environment()
        .put("DAEMON_JAVA", c.options.daemonJavaHome().resolve("bin/java").toString());
    builder.environment().put("DAEMON_JAVA_OPTS", String.join(" ", c.daemonFlags()));
    builder.environment().putAll(env);
    c.log("running %s", String.join(" ", command));
    Process process = builder.start();
    Map<String, Map<String, Object>> medians = new LinkedHashMap<>();
    List<String> tail = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                  c.log("%s: %s", script, line);
                  synchronized (medians) {
                    parseMedian(line, medians);
                    tail.add(line);
                    if (tail.size() > 20) {
                      tail.remove(0);
                    }
                  }
                }
              } catch (java.io.IOException e) {
                // The process ended; its exit code says how.
              }
            },
            "bench-script");
    reader.start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new IllegalStateException(script + " did not finish in " + timeout);
    }
    reader.join(TimeUnit.SECONDS.toMillis(10));
    synchronized (medians) {
      if (process.exitValue() != 0 || medians.isEmpty()) {
        throw new IllegalStateException(
            script + " exited with " + process.exitValue() + ":\n" + String.join("\n", tail));
      }
      return medians;
    }
  }

  /** {@code median <mode> k=v k=v ...}; anything else is progress output. */
  static void parseMedian(String line, Map<String, Map<String, Object>> into) {
    String[] words = line.trim().split("\\s+");
    if (words.length < 3 || !words[0].equals("median") || words[1].contains("=")) {
      return;
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    for (int i = 2; i < words.length; i++) {
      int eq = words[i].indexOf('=');
      if (eq > 0) {
        figures.put(words[i].substring(0, eq), figure(words[i].substring(eq + 1)));
      }
    }
    into.put(words[1], figures);
  }

  /** A number where the script wrote one, otherwise the text (e.g. "-" for not measured). */
  private static Object figure(String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return text;
    }
  }

  /** A figure as the script wrote it, "-" when it wrote nothing. */
  static String text(Map<String, Object> figures, String key) {
    Object value = figures == null ? null : figures.get(key);
    return value == null ? "-" : String.valueOf(value);
  }

  /** A figure as a number, or NaN when the script wrote "-" or nothing. */
  static double number(Map<String, Object> figures, String key) {
    Object value = figures == null ? null : figures.get(key);
    return value instanceof Double number ? number : Double.NaN;
  }
}
