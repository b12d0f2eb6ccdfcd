package io.jvmsentinel.daemon.cli;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigException;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.runtime.ConfigFileReload;
import io.jvmsentinel.daemon.runtime.HangupSignal;
import io.jvmsentinel.daemon.runtime.MemoryGiveBack;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code run}: watch the configured targets until stopped. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Watch one or more JVMs and serve their metrics until stopped (SIGTERM, Ctrl-C).")
public final class RunCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Override
  public Integer call() throws InterruptedException {
    SentinelConfig config;
    CliOverrides overrides;
    try {
      overrides = options.overrides();
    } catch (IllegalArgumentException e) {
      System.err.println("jvm-sentinel: " + e.getMessage());
      return ExitCodes.CONFIG;
    }
    try {
      config = new ConfigLoader().load(options.configFile(), overrides);
    } catch (ConfigException e) {
      ExitCodes.printProblems(e);
      return ExitCodes.CONFIG;
    }
    SentinelDaemon daemon;
    try {
      daemon = SentinelDaemon.start(config);
    } catch (IOException e) {
      System.err.println("jvm-sentinel: " + e.getMessage());
      return ExitCodes.RUNTIME;
    }
    // Targets follow the file while the daemon runs; the rest applies at the next restart.
    Optional<ConfigFileReload> reload =
        options
            .configFile()
            .map(
                file ->
                    new ConfigFileReload(
                        file,
                        overrides,
                        new ConfigLoader(),
                        config,
                        targets -> daemon.liveTargets().want(SentinelDaemon.CONFIG_FILE, targets)));
    reload.ifPresent(
        r -> {
          r.start(ConfigFileReload.DEFAULT_INTERVAL);
          HangupSignal.onHangup(r::reloadNow);
        });
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  reload.ifPresent(ConfigFileReload::close);
                  daemon.close();
                  stopped.countDown();
                },
                "shutdown"));
    // While it waits to be stopped, the main thread gives back memory (see MemoryGiveBack).
    if (!stopped.await(MemoryGiveBack.START_UP.toMillis(), TimeUnit.MILLISECONDS)) {
      MemoryGiveBack.afterStartUp();
    }
    while (!stopped.await(MemoryGiveBack.TRIM_EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
      MemoryGiveBack.periodically();
    }
    return ExitCodes.OK;
  }
}
