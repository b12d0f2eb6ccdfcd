package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.daemon.config.ConfigException;

/** Exit codes of every command: 0 fine, 1 could not run, 2 bad configuration or usage. */
final class ExitCodes {
  static final int OK = 0;
  static final int RUNTIME = 1;
  static final int CONFIG = 2;

  private ExitCodes() {}

  static void printProblems(ConfigException e) {
    System.err.println(
        "jvm-sentinel: invalid configuration ("
            + e.problems().size()
            + " problem"
            + (e.problems().size() == 1 ? "" : "s")
            + "):");
    e.problems().forEach(problem -> System.err.println("  - " + problem));
  }
}
