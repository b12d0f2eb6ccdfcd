package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A healthy service that its monitoring cannot reach for a while, as in a network blip between the
 * two: the {@code healthy} service throughout, with a young collection every second or so (a {@code
 * --rate} MB/s allocation of short-lived buffers beside it, default {@value #DEFAULT_RATE_MB}; run
 * with {@code -Xmx64m} for GC at a few percent of the wall time), and after {@code --pause}
 * (default 40 s) its JMX connector server stopped for {@code --phase} (default 30 s), closing every
 * connection and refusing new ones, then started again on the same port (the management agent's
 * {@code ManagementAgent.stop} and {@code start} commands through the JDK's {@code jcmd}, with the
 * JVM's own {@code com.sun.management.jmxremote.*} properties). The collections of the outage are
 * never notified to anyone. Onsets {@code steady}, {@code jmx-down}, {@code jmx-up}.
 */
final class JmxOutageScenario implements Scenario {
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(40);
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(30);
  static final int DEFAULT_RATE_MB = 40;

  private final LabOptions options;
  private final Duration pause;
  private final Duration phase;
  private final int rateMb;
  private volatile byte[] sink;

  JmxOutageScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(DEFAULT_PAUSE);
    this.phase = options.phase(DEFAULT_PHASE);
    this.rateMb = options.rate(DEFAULT_RATE_MB);
  }

  @Override
  public String name() {
    return "jmx-outage";
  }

  @Override
  public String description() {
    return "healthy with --rate MB/s of garbage (default "
        + DEFAULT_RATE_MB
        + "), its JMX connector stopped after --pause (default 40s) for --phase (default 30s):"
        + " run with -Xmx64m";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    Thread garbage = new Thread(this::allocate, "garbage");
    garbage.setDaemon(true);
    garbage.start();
    try {
      Thread.sleep(pause.toMillis());
      agent("ManagementAgent.stop");
      log.onset("jmx-down", "duration_ms", phase.toMillis());
      Thread.sleep(phase.toMillis());
      agent("ManagementAgent.start");
      log.onset("jmx-up", "after_ms", phase.toMillis());
      service.join();
    } finally {
      garbage.interrupt();
      service.interrupt();
    }
  }

  /** Short-lived 64 KB buffers at {@code rateMb} a second: young collections, nothing kept. */
  private void allocate() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        for (int i = 0; i < rateMb * 16 / 10; i++) {
          sink = new byte[64 * 1024];
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Runs a {@code ManagementAgent} diagnostic command in this JVM through the JDK's {@code jcmd}
   * (the commands are not offered through the DiagnosticCommand MBean).
   */
  private static void agent(String command) throws InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    if (!Files.isExecutable(jcmd)) {
      throw new IllegalStateException("jmx-outage needs the JDK's jcmd, not found at " + jcmd);
    }
    try {
      Process process =
          new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()), command)
              .redirectErrorStream(true)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(command + " failed: " + output.strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not run " + jcmd, e);
    }
  }
}
