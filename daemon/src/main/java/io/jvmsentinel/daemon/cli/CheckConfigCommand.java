package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigException;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.tls.ClientCertificateCheck;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code check-config FILE}: validate a configuration without connecting to anything. */
@Command(
    name = "check-config",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Validate a configuration file: exit 0 if valid, else print every problem and exit 2.")
public final class CheckConfigCommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", description = "The YAML configuration file to check.")
  Path file;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try {
      SentinelConfig config =
          new ConfigLoader()
              .load(Optional.of(file), new CliOverrides(List.of(), List.of(), Optional.empty()));
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          file
              + ": OK, "
              + config.targets().size()
              + " target(s): "
              + config.targets().stream().map(t -> t.name()).toList()
              + ", listening on "
              + (config.http().tls().isPresent() ? "https://" : "http://")
              + config.http().listen()
              + " ("
              + config.http().auth().describe()
              + "); JMX over TLS: "
              + config.targets().stream()
                  .filter(t -> t.tls().isPresent())
                  .map(t -> t.name())
                  .toList()
              + discovery(config));
      // Valid, but a client certificate the agent will refuse: said now, not at the first connect.
      ClientCertificateCheck.ofKeyStores(config.targets(), Instant.now())
          .forEach(warning -> out.println("warning: " + warning));
      return ExitCodes.OK;
    } catch (ConfigException e) {
      ExitCodes.printProblems(e);
      return ExitCodes.CONFIG;
    }
  }

  /** The targets found at run time, which the count above cannot include. */
  private static String discovery(SentinelConfig config) {
    String local = config.localDiscovery().isPresent() ? "; discovers the host's JVMs" : "";
    String kubernetes =
        config
            .kubernetesDiscovery()
            .map(
                k8s ->
                    "; discovers pods annotated "
                        + k8s.annotationPrefix()
                        + "scrape in "
                        + (k8s.namespaces().isEmpty() ? "every namespace" : k8s.namespaces())
                        + k8s.node().map(node -> " on node " + node).orElse(""))
            .orElse("");
    return local + kubernetes;
  }
}
