package io.jvmsentinel.daemon;

import io.jvmsentinel.daemon.cli.CheckConfigCommand;
import io.jvmsentinel.daemon.cli.DemoCommand;
import io.jvmsentinel.daemon.cli.RunCommand;
import io.jvmsentinel.daemon.cli.VersionProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar jvm-sentinel.jar <command>}: the command-line entry point. */
@Command(
    name = "jvm-sentinel",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Watches JVMs from outside over remote JMX and JFR: code cache, JIT, thread starts, GC and"
          + " TLS; serves Prometheus metrics."
    },
    subcommands = {
      RunCommand.class,
      CheckConfigCommand.class,
      DemoCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, for tests that run commands in-process. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    DemoCommand.describeScenarios(commandLine.getSubcommands().get("demo"));
    return commandLine;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
