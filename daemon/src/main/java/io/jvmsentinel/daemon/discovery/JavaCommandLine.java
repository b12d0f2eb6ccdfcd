package io.jvmsentinel.daemon.discovery;

import java.util.List;
import java.util.Set;

/**
 * Reads a {@code java} launcher's argument vector ({@code /proc/<pid>/cmdline}) the way the Attach
 * API reports a JVM's command line: the main class, {@code module/class} or jar path, a space, then
 * the program arguments; the launcher and its options left out.
 */
final class JavaCommandLine {
  /**
   * Launcher options whose value is the next argument (the launcher's own list, java.c:
   * IsClassPathOption, IsModuleOption, IsLauncherOption); other options are one argument.
   */
  private static final Set<String> WITH_VALUE =
      Set.of(
          "-cp",
          "-classpath",
          "--class-path",
          "-p",
          "--module-path",
          "--upgrade-module-path",
          "--add-modules",
          "--enable-native-access",
          "--limit-modules",
          "--add-exports",
          "--add-opens",
          "--add-reads",
          "--patch-module",
          "--source");

  private JavaCommandLine() {}

  /**
   * The command line of a JVM started with these arguments ({@code argv[0]}, the launcher,
   * included), or "" when no main class or jar is found (a JVM embedded by a native launcher).
   */
  static String of(List<String> argv) {
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (arg.equals("-jar") || arg.equals("-m") || arg.equals("--module")) {
        return i + 1 < argv.size() ? join(argv, i + 1) : "";
      }
      if (arg.startsWith("--module=")) {
        return withRest(arg.substring("--module=".length()), argv, i + 1);
      }
      if (WITH_VALUE.contains(arg)) {
        i++; // skip the option's value
        continue;
      }
      if (!arg.startsWith("-")) {
        return join(argv, i);
      }
    }
    return "";
  }

  private static String join(List<String> argv, int from) {
    return String.join(" ", argv.subList(from, argv.size()));
  }

  private static String withRest(String main, List<String> argv, int from) {
    return from < argv.size() ? main + " " + join(argv, from) : main;
  }
}
