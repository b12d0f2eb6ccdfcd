package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.config.AlertsConfig;
import io.jvmsentinel.daemon.config.ConnectionConfig;
import io.jvmsentinel.daemon.config.DatadogConfig;
import io.jvmsentinel.daemon.config.DetectionConfig;
import io.jvmsentinel.daemon.config.HostPort;
import io.jvmsentinel.daemon.config.HttpConfig;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.config.JmxAddress;
import io.jvmsentinel.daemon.config.OtlpConfig;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.config.StorageConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.lab.Scenarios;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code demo [SCENARIO]}: fork the bundled lab JVM, watch it, and show what the daemon sees. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Start the bundled lab JVM as a target on a free loopback port, watch it and serve its"
          + " metrics, with a live view in the terminal. Ctrl-C stops both."
    })
public final class DemoCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      arity = "0..1",
      defaultValue = "mixed",
      paramLabel = "SCENARIO",
      completionCandidates = ScenarioNames.class,
      description = "What the lab JVM does (default: ${DEFAULT-VALUE}); see Scenarios below.")
  String scenario;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:9404",
      description = "Where to serve /metrics (default ${DEFAULT-VALUE}).")
  String listen;

  @Option(
      names = "--lab-java-home",
      paramLabel = "DIR",
      description = "JDK to run the lab on (default: the JDK running this command).")
  Path labJavaHome;

  @Option(
      names = "--record-signals",
      paramLabel = "DIR",
      description =
          "Write the target's signal timeline (what the rules read, one JSON line a second) to"
              + " DIR, to replay it against the rules (detection.recordDirectory).")
  private Path recordSignals;

  @Option(
      names = "--view-interval",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description = "Seconds between live-view lines (default ${DEFAULT-VALUE}).")
  int viewIntervalSeconds;

  private static final String SCENARIOS_SECTION = "scenarios";

  /**
   * Lists the lab's scenarios, with what each does, in {@code demo}'s help, after the options.
   * picocli expands {@code ${COMPLETION-CANDIDATES}} only in option and parameter descriptions: in
   * the command's description it printed "null".
   */
  public static void describeScenarios(CommandLine demo) {
    demo.getHelpSectionMap()
        .put(
            SCENARIOS_SECTION,
            help -> help.createHeading("%nScenarios:%n") + help.createTextTable(scenarios()));
    List<String> sections = new ArrayList<>(demo.getHelpSectionKeys());
    sections.add(sections.indexOf(UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), SCENARIOS_SECTION);
    demo.setHelpSectionKeys(sections);
  }

  /** Each scenario's description, '%' escaped: picocli formats table cells (as for printf). */
  private static Map<String, String> scenarios() {
    Map<String, String> escaped = new LinkedHashMap<>();
    Scenarios.descriptions().forEach((name, text) -> escaped.put(name, text.replace("%", "%%")));
    return escaped;
  }

  /** The lab's scenario names, for completion. */
  static final class ScenarioNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return Scenarios.names().iterator();
    }
  }

  /** Watches the lab as target "lab", polled every 2 s so the live view moves. */
  private SentinelConfig demoConfig(LabProcess lab, HostPort listen) {
    TargetConfig target =
        new TargetConfig(
            "lab",
            JmxAddress.parse(lab.jmxHostPort()),
            Optional.empty(),
            Optional.empty(),
            Duration.ofSeconds(2),
            Map.of());
    return new SentinelConfig(
        new HttpConfig(listen),
        Map.of(),
        ConnectionConfig.DEFAULT,
        JfrConfig.DEFAULT,
        AlertsConfig.DEFAULT,
        demoDetection(),
        StorageConfig.DEFAULT,
        DatadogConfig.DISABLED,
        OtlpConfig.DISABLED,
        Optional.empty(),
        Optional.empty(),
        SentinelConfig.DEFAULT_MAX_TARGETS,
        List.of(target));
  }

  /** Detection as configured by default, with a one-minute warm-up so the demo moves along. */
  private DetectionConfig demoDetection() {
    DetectionConfig d = DetectionConfig.DEFAULT;
    return new DetectionConfig(
        d.enabled(),
        d.interval(),
        d.signalPollInterval(),
        Duration.ofMinutes(1),
        Duration.ofMinutes(2),
        d.snapshotDirectory(),
        d.snapshotMaxSizeMb(),
        d.snapshotWindow(),
        Optional.ofNullable(recordSignals),
        d.rules(),
        d.targets(),
        d.disabled());
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (!Scenarios.names().contains(scenario)) {
      System.err.println("unknown scenario '" + scenario + "'; choose one of " + Scenarios.names());
      return ExitCodes.CONFIG;
    }
    HostPort listenAddress;
    try {
      listenAddress = HostPort.parse(listen);
    } catch (IllegalArgumentException e) {
      System.err.println("jvm-sentinel: invalid --listen '" + listen + "': " + e.getMessage());
      return ExitCodes.CONFIG;
    }
    // The scenario's own JVM flags (a small code cache, a small heap); the same on every JDK.
    LabSpec.Builder spec =
        LabScenarios.builder(scenario)
            .onOutput(line -> System.out.println("  lab | " + SafeText.of(line)));
    if (labJavaHome != null) {
      spec.javaHome(labJavaHome);
    }
    // The terminal shows each alert readably (AlertConsole); the alert log lines are for logs.
    AlertConsole.muteAlertLogLines();
    System.out.println("Starting the lab JVM (scenario " + scenario + ")...");
    LabProcess lab = spec.build().startReady(Duration.ofSeconds(60));
    AlertConsole alerts = new AlertConsole();
    SentinelDaemon daemon;
    try {
      daemon = SentinelDaemon.start(demoConfig(lab, listenAddress), alerts);
    } catch (IOException e) {
      lab.close();
      System.err.println("jvm-sentinel: " + e.getMessage());
      return ExitCodes.RUNTIME;
    }
    String target = daemon.sessions().get(0).name();
    // The port bound, which --listen may have left to the system (port 0).
    String served = new HostPort(listenAddress.host(), daemon.httpPort()).toString();
    System.out.printf(
        "Watching the lab (pid %d, JMX %s) as target '%s'.%n"
            + "Metrics: http://%s/metrics   Targets: http://%s/api/v1/targets   Ctrl-C to stop.%n",
        lab.pid(), lab.jmxHostPort(), target, served, served);

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("Stopping the daemon and the lab JVM...");
                  daemon.close();
                  lab.close();
                  stopped.countDown();
                },
                "demo-shutdown"));
    LiveView view = new LiveView(daemon.registry(), daemon.sessions().get(0));
    while (!stopped.await(viewIntervalSeconds, java.util.concurrent.TimeUnit.SECONDS)) {
      if (!lab.isAlive()) {
        System.out.println("The lab JVM exited; stopping.");
        daemon.close();
        return ExitCodes.RUNTIME;
      }
      // The line may name the target's last error, in the target's words.
      System.out.println(SafeText.of(view.line()));
      alerts.printChanges();
    }
    return ExitCodes.OK;
  }
}
