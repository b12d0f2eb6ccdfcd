package io.jvmsentinel.daemon.lab;

import io.jvmsentinel.lab.LabMain;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to launch a lab target JVM: which JDK, scenario and arguments, JVM flags and JMX port.
 * Immutable; build with {@link #builder(String)} and launch with {@link #start()}.
 *
 * @param javaHome the JDK or runtime to run the lab on
 * @param scenario the lab scenario name, e.g. {@code thread-per-request}
 * @param scenarioArgs arguments after the scenario, e.g. {@code --rate 500}
 * @param jvmArgs extra JVM flags, e.g. {@code -XX:ReservedCodeCacheSize=16m}
 * @param jmxRemote whether to open remote JMX on loopback (false: attach-by-pid only)
 * @param jmxPort the JMX port; 0 picks a free loopback port at start
 * @param classpath where {@code io.jvmsentinel.lab.LabMain} is loaded from
 * @param outputListener receives every stdout and stderr line of the lab, as it arrives
 * @param maxOutputLines how many recent lines {@link LabProcess#output()} keeps
 * @param stopGrace how long {@link LabProcess#stop()} waits after SIGTERM before SIGKILL
 */
public record LabSpec(
    Path javaHome,
    String scenario,
    List<String> scenarioArgs,
    List<String> jvmArgs,
    boolean jmxRemote,
    int jmxPort,
    String classpath,
    Consumer<String> outputListener,
    int maxOutputLines,
    Duration stopGrace) {

  public static final String MAIN_CLASS = LabMain.class.getName();

  public LabSpec {
    Objects.requireNonNull(javaHome, "javaHome");
    Objects.requireNonNull(scenario, "scenario");
    scenarioArgs = List.copyOf(scenarioArgs);
    jvmArgs = List.copyOf(jvmArgs);
    Objects.requireNonNull(classpath, "classpath");
    Objects.requireNonNull(outputListener, "outputListener");
    Objects.requireNonNull(stopGrace, "stopGrace");
    if (jmxPort < 0 || jmxPort > 65_535) {
      throw new IllegalArgumentException("jmxPort out of range: " + jmxPort);
    }
    if (maxOutputLines < 1) {
      throw new IllegalArgumentException("maxOutputLines must be positive: " + maxOutputLines);
    }
  }

  public static Builder builder(String scenario) {
    return new Builder(scenario);
  }

  /** Starts the lab JVM; call {@link LabProcess#awaitReady} before using it. */
  public LabProcess start() throws IOException {
    return LabProcess.start(this);
  }

  /** Starts the lab JVM and waits until it is ready; see {@link LabProcess#startReady}. */
  public LabProcess startReady(Duration timeout) throws IOException {
    return LabProcess.startReady(this, timeout);
  }

  /** This spec with a fixed JMX port, e.g. to start a replacement target on the same port. */
  public LabSpec withJmxPort(int port) {
    return new LabSpec(
        javaHome,
        scenario,
        scenarioArgs,
        jvmArgs,
        jmxRemote,
        port,
        classpath,
        outputListener,
        maxOutputLines,
        stopGrace);
  }

  /** The full command line, with {@code port} as the resolved JMX port. */
  public List<String> command(int port) {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    if (jmxRemote) {
      // One port for both the RMI registry and the connector, bound to loopback only.
      command.add("-Dcom.sun.management.jmxremote.port=" + port);
      command.add("-Dcom.sun.management.jmxremote.rmi.port=" + port);
      command.add("-Dcom.sun.management.jmxremote.host=127.0.0.1");
      command.add("-Djava.rmi.server.hostname=127.0.0.1");
      command.add("-Dcom.sun.management.jmxremote.authenticate=false");
      command.add("-Dcom.sun.management.jmxremote.ssl=false");
      command.add("-Dcom.sun.management.jmxremote.local.only=false");
    }
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(classpath);
    command.add(MAIN_CLASS);
    command.add(scenario);
    command.addAll(scenarioArgs);
    return command;
  }

  /** Where LabMain was loaded from: the shaded jar in production, target/classes in tests. */
  public static String defaultClasspath() {
    try {
      return Path.of(LabMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the lab classes", e);
    }
  }

  /** Builder with defaults: the running JVM's java.home, JMX on a free port. */
  public static final class Builder {
    private Path javaHome = Path.of(System.getProperty("java.home"));
    private final String scenario;
    private final List<String> scenarioArgs = new ArrayList<>();
    private final List<String> jvmArgs = new ArrayList<>();
    private boolean jmxRemote = true;
    private int jmxPort;
    private String classpath;
    private Consumer<String> outputListener = line -> {};
    private int maxOutputLines = 1_000;
    private Duration stopGrace = Duration.ofSeconds(5);

    private Builder(String scenario) {
      this.scenario = scenario;
    }

    public Builder javaHome(Path javaHome) {
      this.javaHome = javaHome;
      return this;
    }

    /** Appends raw scenario arguments. */
    public Builder args(String... args) {
      scenarioArgs.addAll(List.of(args));
      return this;
    }

    public Builder rate(int perSecond) {
      return args("--rate", Integer.toString(perSecond));
    }

    public Builder threads(int threads) {
      return args("--threads", Integer.toString(threads));
    }

    public Builder duration(Duration duration) {
      return args("--duration", duration.toMillis() + "ms");
    }

    public Builder delay(Duration delay) {
      return args("--delay", delay.toMillis() + "ms");
    }

    public Builder warmup(Duration warmup) {
      return args("--warmup", warmup.toMillis() + "ms");
    }

    /** Appends JVM flags, placed before the main class. */
    public Builder jvmArgs(String... args) {
      jvmArgs.addAll(List.of(args));
      return this;
    }

    public Builder jmxPort(int port) {
      this.jmxPort = port;
      return this;
    }

    /** No jmxremote flags at all: the target is reachable by attach (pid) only. */
    public Builder withoutJmxRemote() {
      this.jmxRemote = false;
      return this;
    }

    public Builder classpath(String classpath) {
      this.classpath = classpath;
      return this;
    }

    public Builder onOutput(Consumer<String> listener) {
      this.outputListener = listener;
      return this;
    }

    public Builder maxOutputLines(int lines) {
      this.maxOutputLines = lines;
      return this;
    }

    public Builder stopGrace(Duration grace) {
      this.stopGrace = grace;
      return this;
    }

    public LabSpec build() {
      return new LabSpec(
          javaHome,
          scenario,
          scenarioArgs,
          jvmArgs,
          jmxRemote,
          jmxPort,
          classpath != null ? classpath : defaultClasspath(),
          outputListener,
          maxOutputLines,
          stopGrace);
    }

    public LabProcess start() throws IOException {
      return build().start();
    }
  }
}
