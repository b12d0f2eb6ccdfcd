package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged daemon running as its own process, with its own temp directory, so a test can read
 * its threads, descriptors and connections from {@code /proc} without counting the test's own.
 */
public final class ForkedDaemon implements AutoCloseable {
  // The logs kept so far in this test JVM, in order: DaemonLogsOnFailure prints a failed test's.
  private static final List<Path> KEPT = new ArrayList<>();

  private final Process process;
  private final Path tmp;
  private final Path log;
  private final DaemonHttp http;

  private ForkedDaemon(Process process, Path tmp, Path log, int port) {
    this.process = process;
    this.tmp = tmp;
    this.log = log;
    this.http = new DaemonHttp(port);
  }

  /**
   * Runs {@code run --config <yaml>} on JDK 17; {@code yaml} must listen on {@code
   * 127.0.0.1:<port>}.
   */
  public static ForkedDaemon start(Path dir, String yaml, int port) throws IOException {
    Path tmp = dir.resolve("daemon-tmp");
    return start(
        dir,
        yaml,
        port,
        Jdks.jdk17(),
        Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp + " -Xmx128m"));
  }

  /**
   * As above, on this Java runtime with this environment (its JVM options); the temp directory the
   * options should name is {@code dir/daemon-tmp}.
   */
  public static ForkedDaemon start(
      Path dir, String yaml, int port, Path javaHome, Map<String, String> env) throws IOException {
    Path config = Files.createTempFile(dir, "sentinel", ".yaml");
    Files.writeString(config, yaml);
    Path tmp = Files.createDirectories(dir.resolve("daemon-tmp"));
    Path log = dir.resolve("daemon-" + System.nanoTime() + ".log");
    Process process =
        SentinelJar.command(javaHome, env, "run", "--config", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new ForkedDaemon(process, tmp, log, port);
  }

  public long pid() {
    return process.pid();
  }

  public DaemonHttp http() {
    return http;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Where the daemon keeps its local JFR chunks. */
  public Path jfrRoot() {
    return tmp.resolve("jvm-sentinel-jfr");
  }

  public ProcessResources resources() {
    return ProcessResources.of(pid(), jfrRoot());
  }

  public String log() throws IOException {
    return Files.readString(log);
  }

  /** SIGKILL: the daemon gets no chance to close anything. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS);
    keepLog();
  }

  /** SIGTERM and wait; true if it exited in time. */
  public boolean stop() throws InterruptedException {
    process.destroy();
    if (process.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS)) {
      return true;
    }
    process.destroyForcibly();
    return false;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        stop();
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    keepLog();
  }

  /** Copies the log out of the test's temporary directory, for a failed CI run. */
  private void keepLog() {
    try {
      Path kept =
          Files.createDirectories(Path.of("target", "forked-daemon-logs"))
              .resolve("daemon-" + pid() + ".log");
      Files.copy(log, kept, StandardCopyOption.REPLACE_EXISTING);
      synchronized (KEPT) {
        if (!KEPT.contains(kept)) {
          KEPT.add(kept);
        }
      }
    } catch (IOException e) {
      // Only a diagnostic aid.
    }
  }

  /** The logs kept so far, oldest first. */
  static List<Path> keptLogs() {
    synchronized (KEPT) {
      return List.copyOf(KEPT);
    }
  }
}
