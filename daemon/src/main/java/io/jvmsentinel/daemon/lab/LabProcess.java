package io.jvmsentinel.daemon.lab;

import java.io.IOException;
import java.net.MalformedURLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.management.remote.JMXServiceURL;

/**
 * A running lab target JVM (see {@link LabSpec}): its pid and JMX port, its output, and the faults
 * tests inject (kill, suspend, restart on the same port).
 *
 * <p>Any lab still running when this JVM exits is killed by a shutdown hook, so an aborted test run
 * leaves no targets behind.
 */
public final class LabProcess implements AutoCloseable {

  private static final Set<LabProcess> RUNNING = ConcurrentHashMap.newKeySet();
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  private static final Duration RETRY_PAUSE = Duration.ofMillis(200);

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> RUNNING.forEach(lab -> lab.process.destroyForcibly()), "lab-process-reaper"));
  }

  private final LabSpec spec;
  private final int jmxPort;
  private final List<String> command;
  private final Process process;
  private final CapturedOutput output;
  private volatile boolean suspended;

  private LabProcess(
      LabSpec spec, int jmxPort, List<String> command, Process process, CapturedOutput output) {
    this.spec = spec;
    this.jmxPort = jmxPort;
    this.command = command;
    this.process = process;
    this.output = output;
  }

  /** Starts the lab JVM without waiting for it; see {@link #awaitReady}. */
  public static LabProcess start(LabSpec spec) throws IOException {
    int port =
        !spec.jmxRemote() ? 0 : spec.jmxPort() != 0 ? spec.jmxPort() : LoopbackPorts.freePort();
    List<String> command = spec.command(port);
    Process process = new ProcessBuilder(command).start();
    process.getOutputStream().close();
    CapturedOutput output = new CapturedOutput(spec.maxOutputLines(), spec.outputListener());
    output.follow(process.getInputStream(), "lab-" + process.pid() + "-stdout");
    output.follow(process.getErrorStream(), "lab-" + process.pid() + "-stderr");
    LabProcess lab = new LabProcess(spec, port, command, process, output);
    RUNNING.add(lab);
    return lab;
  }

  /**
   * Starts the lab JVM and waits until it is ready, starting it again while its JMX port is still
   * taken (a free port picked by another process meanwhile, or a dying predecessor's port).
   */
  public static LabProcess startReady(LabSpec spec, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      LabProcess lab = start(spec);
      try {
        return lab.awaitReady(Duration.ofNanos(deadline - System.nanoTime()));
      } catch (LabProcessException e) {
        lab.stop();
        if (!e.portInUse() || System.nanoTime() > deadline) {
          throw e;
        }
      }
      sleep(RETRY_PAUSE);
    }
  }

  /**
   * Waits for the {@code LAB ready} line and, with remote JMX, for the JMX port to accept TCP
   * connections.
   *
   * @throws LabProcessException if the JVM exits first or the timeout passes, with its output
   */
  public LabProcess awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (events().stream().noneMatch(event -> event.type().equals("ready"))) {
      failIfDeadOrLate(deadline, "print its ready line");
      awaitOutput();
    }
    while (spec.jmxRemote() && !LoopbackPorts.accepts(jmxPort, 200)) {
      failIfDeadOrLate(deadline, "accept connections on JMX port " + jmxPort);
      sleep(Duration.ofMillis(50));
    }
    return this;
  }

  /** Waits for the first {@code LAB} event matching the predicate, e.g. an onset of a phase. */
  public LabEvent awaitEvent(Predicate<LabEvent> predicate, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<LabEvent> match = events().stream().filter(predicate).findFirst();
      if (match.isPresent()) {
        return match.get();
      }
      failIfDeadOrLate(deadline, "print the awaited event");
      awaitOutput();
    }
  }

  /** Waits for {@code LAB onset ... phase=<phase>}. */
  public LabEvent awaitOnset(String phase, Duration timeout) {
    return awaitEvent(
        event -> event.type().equals("onset") && event.phase().equals(Optional.of(phase)), timeout);
  }

  public long pid() {
    return process.pid();
  }

  public LabSpec spec() {
    return spec;
  }

  public List<String> command() {
    return command;
  }

  /** The loopback JMX port. */
  public int jmxPort() {
    if (!spec.jmxRemote()) {
      throw new IllegalStateException("lab " + pid() + " was started without remote JMX");
    }
    return jmxPort;
  }

  /** {@code 127.0.0.1:<port>}, as a daemon target address. */
  public String jmxHostPort() {
    return "127.0.0.1:" + jmxPort();
  }

  public JMXServiceURL jmxServiceUrl() {
    try {
      return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + jmxHostPort() + "/jmxrmi");
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /** The most recent stdout and stderr lines (bounded by {@link LabSpec#maxOutputLines()}). */
  public List<String> output() {
    return output.lines();
  }

  /** Every {@code LAB} line printed so far. */
  public List<LabEvent> events() {
    return output.events();
  }

  /** Freezes the JVM with SIGSTOP: it stays connected but answers nothing. */
  public void suspend() {
    signal("STOP");
    suspended = true;
  }

  /** Continues a suspended JVM with SIGCONT. */
  public void resume() {
    signal("CONT");
    suspended = false;
  }

  public boolean isSuspended() {
    return suspended;
  }

  /** SIGTERM, then SIGKILL after the spec's grace period. Idempotent. */
  public void stop() {
    if (process.isAlive()) {
      process.destroy();
      if (suspended) {
        // A stopped JVM only acts on SIGTERM once continued.
        signalQuietly("CONT");
      }
      if (!waitForExit(spec.stopGrace())) {
        kill();
        return;
      }
    }
    exited();
  }

  /** SIGKILL, and wait for the process to be gone: a crash, as far as a monitor can tell. */
  public void kill() {
    process.destroyForcibly();
    if (!waitForExit(KILL_WAIT)) {
      throw new IllegalStateException("lab " + pid() + " survived SIGKILL for " + KILL_WAIT);
    }
    exited();
  }

  /**
   * Stops this lab if it still runs and starts the same spec again on the same JMX port, waiting
   * until the new JVM is ready. Reconnect tests use it to bring a target back.
   */
  public LabProcess restart(Duration readyTimeout) throws IOException {
    stop();
    return startReady(spec.withJmxPort(jmxPort), readyTimeout);
  }

  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return "lab " + spec.scenario() + " pid " + pid() + (spec.jmxRemote() ? " jmx " + jmxPort : "");
  }

  private void exited() {
    suspended = false;
    RUNNING.remove(this);
    try {
      output.drain(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean waitForExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return false;
    }
  }

  private void failIfDeadOrLate(long deadline, String what) {
    if (!process.isAlive()) {
      exited();
      throw failure("exited with code " + process.exitValue() + " before it would " + what);
    }
    if (System.nanoTime() > deadline) {
      throw failure("did not " + what + " in time");
    }
  }

  private LabProcessException failure(String problem) {
    List<String> lines = output.lines();
    boolean portInUse = lines.stream().anyMatch(line -> line.contains("Port already in use"));
    return new LabProcessException(
        this
            + " "
            + problem
            + "\ncommand: "
            + String.join(" ", command)
            + "\noutput:\n  "
            + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 60), lines.size())),
        portInUse);
  }

  private void awaitOutput() {
    try {
      output.awaitChange(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + this, e);
    }
  }

  private void signal(String signal) {
    if (!process.isAlive()) {
      throw new IllegalStateException(this + " is not running");
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill -" + signal, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted sending SIG" + signal + " to " + this, e);
    }
  }

  private void signalQuietly(String signal) {
    try {
      signal(signal);
    } catch (IllegalStateException e) {
      // The process ended meanwhile.
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
