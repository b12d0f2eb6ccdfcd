package io.jvmsentinel.daemon;

import io.jvmsentinel.daemon.cli.CheckConfigCommand;
import io.jvmsentinel.daemon.cli.DemoCommand;
import io.jvmsentinel.daemon.cli.RunCommand;
import io.jvmsentinel.daemon.cli.VersionProvider;
import java.util.concurrent.Callable;
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
public final class Main implements Callable<Integer> {
  /** As every command's usage error (see cli.ExitCodes). */
  private static final int USAGE = 2;

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

  /**
   * No command is a usage error, not success: a container started without one must not look like a
   * daemon that ran and finished.
   */
  @Override
  public Integer call() {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println("jvm-sentinel: which command? (run, check-config or demo)");
    commandLine.usage(commandLine.getErr());
    return USAGE;
  }
}
