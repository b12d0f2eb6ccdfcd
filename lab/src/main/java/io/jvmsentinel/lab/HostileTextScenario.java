package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * A target whose text is built to break its observer: it rewrites its own command line (the argv
 * memory {@code /proc/<pid>/cmdline} shows, through {@code /proc/self/mem}, which any Linux process
 * may do) so that the main class a scanner reads is about 10 KB of escape sequences, bell, Unicode
 * line separators and bidirectional overrides, and it runs threads whose names start with CR/LF and
 * a forged log line and run on for 10 KB. Start it with a long argument ({@code --label} of 11,000
 * characters): the rewrite cannot grow the argv area, only fill it. Linux only.
 */
final class HostileTextScenario implements Scenario {
  /** Inside the forged main class, so a discovery filter can find this JVM after the rewrite. */
  static final String MARKER = "hostile-text-marker";

  static final String FORGED_LINE = "2026-01-01T00:00:00.000Z ERROR [main] Forged: owned";

  @Override
  public String name() {
    return "hostile-text";
  }

  @Override
  public String description() {
    return "rewrites its command line to a 10 KB main class of control characters and names its"
        + " threads with CR/LF and 10 KB (Linux; start it with a long --label)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    int written;
    try {
      written = rewriteCommandLine();
    } catch (IOException e) {
      throw new IllegalStateException("cannot rewrite the command line: " + e, e);
    }
    for (int i = 0; i < 3; i++) {
      Thread thread =
          new Thread(
              HostileTextScenario::sleepForever,
              "\r\n" + FORGED_LINE + " \u001b[2K\u0007" + "T".repeat(10_000) + i);
      thread.setDaemon(true);
      thread.start();
    }
    log.onset(name(), "main_class_chars", written);
    sleepForever();
  }

  /** argv becomes {@code java\0<hostile main class>\0\0...}; returns the main class's length. */
  private static int rewriteCommandLine() throws IOException {
    String stat =
        new String(Files.readAllBytes(Paths.get("/proc/self/stat")), StandardCharsets.UTF_8);
    // Fields after the command name (which may hold spaces and parentheses): field 3 onwards.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long argStart = Long.parseLong(fields[48 - 3]);
    long argEnd = Long.parseLong(fields[49 - 3]);
    int area = (int) (argEnd - argStart);
    byte[] head = "java\0".getBytes(StandardCharsets.UTF_8);
    String main = "\u001b[2K\u0007" + MARKER + "\u2028\u202E" + "A".repeat(Math.max(0, area - 200));
    byte[] mainBytes = main.getBytes(StandardCharsets.UTF_8);
    byte[] argv = new byte[area];
    System.arraycopy(head, 0, argv, 0, head.length);
    int length = Math.min(mainBytes.length, area - head.length - 1);
    System.arraycopy(mainBytes, 0, argv, head.length, length);
    try (RandomAccessFile memory = new RandomAccessFile("/proc/self/mem", "rw")) {
      memory.seek(argStart);
      memory.write(argv);
    }
    return main.length();
  }

  private static void sleepForever() {
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
