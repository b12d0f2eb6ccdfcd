package io.jvmsentinel.bench;

import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** What every section shares: options, paths, the JVMs to use, and how to start processes. */
final class BenchContext {

  /**
   * The daemon's JVM flags as the container image runs it (deploy/Dockerfile: JDK_JAVA_OPTIONS and
   * the ENTRYPOINT), with {@code -XX:MaxRAM} standing in for the sidecar's memory limit
   * (deploy/kubernetes: 256Mi), which the JVM would read from the cgroup in a pod.
   */
  static final List<String> DAEMON_FLAGS =
      List.of(
          "-XX:+UseSerialGC",
          "-XX:MaxRAMPercentage=60",
          "-XX:TieredStopAtLevel=1",
          "-XX:+ExitOnOutOfMemoryError",
          "-XX:MaxRAM=256m");

  final BenchOptions options;
  final Path work;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private final AtomicInteger serial = new AtomicInteger();

  BenchContext(BenchOptions options, Path work) {
    this.options = options;
    this.work = work;
  }

  /** The container's flags (none with {@code --jvm-defaults}) plus any {@code --daemon-flag}. */
  List<String> daemonFlags() {
    return daemonFlags(options);
  }

  static List<String> daemonFlags(BenchOptions options) {
    List<String> flags = new ArrayList<>(options.jvmDefaults() ? List.of() : DAEMON_FLAGS);
    flags.addAll(options.extraDaemonFlags());
    return flags;
  }

  boolean quick() {
    return options.quick();
  }

  /** Picks the quick or the full value of a setting. */
  <T> T pick(T quick, T full) {
    return options.quick() ? quick : full;
  }

  void log(String format, Object... args) {
    System.err.printf("[bench %s] %s%n", LocalTime.now().withNano(0), String.format(format, args));
  }

  static void sleep(Duration duration) throws InterruptedException {
    Thread.sleep(duration.toMillis());
  }

  /** The JDK feature version of a Java home, from its {@code release} file. */
  static int feature(Path javaHome) throws IOException {
    for (String line : Files.readAllLines(javaHome.resolve("release"))) {
      if (line.startsWith("JAVA_VERSION=")) {
        String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
        return Integer.parseInt(version.split("[.+-]")[0]);
      }
    }
    throw new IOException("no JAVA_VERSION in " + javaHome.resolve("release"));
  }

  /** A lab target on the targets' JDK, with remote JMX on a free loopback port, ready. */
  LabProcess startLab(
      String scenario, List<String> jvmArgs, List<String> args, Consumer<LabEvent> events)
      throws IOException {
    Path home = options.labJavaHome();
    LabSpec spec =
        LabScenarios.builder(scenario, home, feature(home))
            .classpath(options.jar().toString())
            .jvmArgs(jvmArgs.toArray(new String[0]))
            .args(args.toArray(new String[0]))
            .onOutput(line -> LabEvent.parse(line).ifPresent(events))
            .build();
    return spec.startReady(Duration.ofSeconds(60));
  }

  /** A jvm-sentinel daemon process with the container's flags and this YAML after its listen. */
  DaemonProcess startDaemon(String label, String yaml) throws IOException, InterruptedException {
    int port = LoopbackPorts.freePort();
    Path dir = Files.createDirectories(work.resolve(label + "-" + serial.incrementAndGet()));
    Path config = dir.resolve("sentinel.yaml");
    Files.writeString(config, "http:\n  listen: 127.0.0.1:" + port + "\n" + yaml);
    List<String> command = new ArrayList<>();
    command.add(options.daemonJavaHome().resolve("bin/java").toString());
    command.addAll(daemonFlags());
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
    command.addAll(List.of("-jar", options.jar().toString(), "run", "--config", config.toString()));
    Process process = launch(command, dir.resolve("daemon.log"));
    DaemonProcess daemon = new DaemonProcess(process, "http://127.0.0.1:" + port, dir);
    daemon.awaitReady(this, Duration.ofSeconds(90));
    return daemon;
  }

  /** The jmx_exporter standalone equivalent (bench/jmx-exporter) scraping {@code hostPort}. */
  DaemonProcess startJmxExporter(String hostPort) throws IOException, InterruptedException {
    String classpath =
        options
            .exporterClasspath()
            .orElseThrow(() -> new IllegalStateException("no --exporter-classpath"));
    int port = LoopbackPorts.freePort();
    Path dir = Files.createDirectories(work.resolve("jmx-exporter-" + serial.incrementAndGet()));
    Path config = dir.resolve("config.yaml");
    // The exporter's documented catch-all: every MBean attribute, as most deployments start.
    Files.writeString(config, "hostPort: " + hostPort + "\nrules:\n  - pattern: \".*\"\n");
    List<String> command =
        List.of(
            options.daemonJavaHome().resolve("bin/java").toString(),
            "-cp",
            classpath,
            "JmxExporterStandalone",
            "127.0.0.1",
            Integer.toString(port),
            config.toString());
    Process process = launch(command, dir.resolve("exporter.log"));
    DaemonProcess exporter = new DaemonProcess(process, "http://127.0.0.1:" + port, dir);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!LoopbackPorts.accepts(port, 200)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        exporter.close();
        throw new IOException("jmx_exporter did not start, see " + dir.resolve("exporter.log"));
      }
      Thread.sleep(100);
    }
    return exporter;
  }

  private static Process launch(List<String> command, Path log) throws IOException {
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** GET, returning status and body; empty on any failure. */
  Optional<HttpResponse<String>> get(String url) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build();
      return Optional.of(http.send(request, HttpResponse.BodyHandlers.ofString()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
