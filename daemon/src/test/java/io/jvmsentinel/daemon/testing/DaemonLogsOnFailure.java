package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Prints the end of the log of every daemon a failed test forked: a CI run keeps only the console,
 * and a flaky failure cannot be explained without the daemon's side of it. Integration test classes
 * run one at a time in each test JVM, so the logs kept since the test began are its own.
 */
public final class DaemonLogsOnFailure implements BeforeEachCallback, TestWatcher {
  static final int TAIL_LINES = 80;
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(DaemonLogsOnFailure.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NAMESPACE).put("keptBefore", ForkedDaemon.keptLogs().size());
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    Integer before = context.getStore(NAMESPACE).get("keptBefore", Integer.class);
    List<Path> logs = ForkedDaemon.keptLogs();
    for (Path log : logs.subList(before == null ? 0 : before, logs.size())) {
      System.out.printf(
          "---- %s failed; the last %d lines of %s:%n%s%n",
          context.getDisplayName(), TAIL_LINES, log, tail(log));
    }
  }

  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
