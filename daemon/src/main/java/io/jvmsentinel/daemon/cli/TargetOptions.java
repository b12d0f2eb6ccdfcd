package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.daemon.config.CliOverrides;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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

  Optional<Path> configFile() {
    return Optional.ofNullable(config);
  }

  CliOverrides overrides() {
    return new CliOverrides(
        targets == null ? List.of() : targets,
        pids == null ? List.of() : pids,
        Optional.ofNullable(listen),
        Optional.ofNullable(name));
  }
}
