package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.JvmMatch;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Option;

/** The options shared by {@code run}: where the targets are and where to listen. */
public final class TargetOptions {
  @Option(
      names = "--target",
      split = ",",
      paramLabel = "HOST:PORT|service:jmx:...",
      defaultValue = "${env:JVM_SENTINEL_TARGET}",
      description =
          "A JVM to watch over remote JMX; repeat or separate with commas. Env: JVM_SENTINEL_TARGET")
  List<String> targets;

  @Option(
      names = "--pid",
      split = ",",
      paramLabel = "PID",
      defaultValue = "${env:JVM_SENTINEL_PID}",
      description =
          "A local JVM to attach to by process id (same host or shared process namespace; no"
              + " jmxremote flags needed). Env: JVM_SENTINEL_PID")
  List<Long> pids;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      defaultValue = "${env:JVM_SENTINEL_TARGET_NAME}",
      description =
          "The name (the target tag) of the one target given by --target or --pid, instead of"
              + " host-port or pid-N; keeps series stable when the pid changes."
              + " Env: JVM_SENTINEL_TARGET_NAME")
  String name;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "${env:JVM_SENTINEL_LISTEN}",
      description =
          "Where to serve /metrics, /health, /ready and the API (default 0.0.0.0:9404)."
              + " Env: JVM_SENTINEL_LISTEN")
  String listen;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      defaultValue = "${env:JVM_SENTINEL_CONFIG}",
      description = "YAML configuration file (see docs/configuration.md). Env: JVM_SENTINEL_CONFIG")
  Path config;

  @Option(
      names = "--discover",
      paramLabel = "PROVIDER",
      description =
          "Find targets at run time: 'local' watches every JVM on this host the daemon may attach"
              + " to (same user; as --pid), listed again every 5 s; a JVM that exits is removed."
              + " 'kubernetes' watches the pods annotated jvm-sentinel.io/scrape: \"true\" through"
              + " the Kubernetes API (the file's discovery.kubernetes, or its defaults).")
  String discover;

  @Option(
      names = "--discover-include",
      paramLabel = "REGEX",
      description =
          "With --discover local: watch only JVMs whose command line (main class or jar, then"
              + " arguments) contains a match; repeatable.")
  List<String> discoverInclude;

  @Option(
      names = "--discover-exclude",
      paramLabel = "REGEX",
      description =
          "With --discover local: never watch JVMs whose command line contains a match;"
              + " repeatable.")
  List<String> discoverExclude;

  Optional<Path> configFile() {
    return Optional.ofNullable(config);
  }

  CliOverrides overrides() {
    return new CliOverrides(
        targets == null ? List.of() : targets,
        pids == null ? List.of() : pids,
        Optional.ofNullable(listen),
        Optional.ofNullable(name),
        localDiscovery(),
        "kubernetes".equals(discover));
  }

  /**
   * The {@code --discover local} settings (filters on the command line; the file's {@code
   * discovery.local} filters on main class and user too), or a usage error naming the bad value.
   */
  Optional<LocalDiscoveryConfig> localDiscovery() {
    if (discover != null && !discover.equals("local") && !discover.equals("kubernetes")) {
      throw new IllegalArgumentException(
          "--discover " + discover + ": unknown provider; use 'local' or 'kubernetes'");
    }
    if (!"local".equals(discover)) {
      if (discoverInclude != null || discoverExclude != null) {
        throw new IllegalArgumentException(
            "--discover-include and --discover-exclude need --discover local");
      }
      return Optional.empty();
    }
    return Optional.of(
        new LocalDiscoveryConfig(
            LocalDiscoveryConfig.DEFAULT_INTERVAL,
            TargetConfig.DEFAULT_POLL_INTERVAL,
            matches("--discover-include", discoverInclude),
            matches("--discover-exclude", discoverExclude)));
  }

  private static List<JvmMatch> matches(String option, List<String> values) {
    List<JvmMatch> patterns = new ArrayList<>();
    for (String value : values == null ? List.<String>of() : values) {
      try {
        patterns.add(JvmMatch.commandLine(Pattern.compile(value)));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            option + " " + value + ": not a regular expression: " + e.getDescription(), e);
      }
    }
    return patterns;
  }
}
