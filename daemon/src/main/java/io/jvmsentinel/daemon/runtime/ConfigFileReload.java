package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigException;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.support.DaemonThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the targets of the configuration file when its content changes, or at once on {@link
 * #reloadNow()} (SIGHUP). The file is read every few seconds and compared by content, not
 * modification time: a Kubernetes ConfigMap update swaps a symlink, and two edits within a second
 * share a time. A changed file is validated as at start-up; a valid one replaces the file's
 * targets, an invalid one keeps the running targets and logs every problem. So does a file whose
 * targets bring tag keys the daemon did not start with (the registry would refuse their series).
 * Other sections take effect at the next restart; the log names those that changed.
 */
public final class ConfigFileReload implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConfigFileReload.class);
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

  private final Path file;
  private final CliOverrides cli;
  private final ConfigLoader loader;
  private final SentinelConfig running;
  private final Consumer<List<TargetConfig>> targets;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("config-reload"));
  // Only the reload thread reads and writes these.
  private byte[] lastSeen;
  private boolean unreadableLogged;

  /**
   * @param file the configuration file the daemon started from
   * @param cli the command line it started with: its targets stay, its listen address still wins
   * @param running the configuration the daemon started with
   * @param targets receives the file's (and command line's) targets after each valid change
   */
  public ConfigFileReload(
      Path file,
      CliOverrides cli,
      ConfigLoader loader,
      SentinelConfig running,
      Consumer<List<TargetConfig>> targets) {
    this.file = file;
    this.cli = cli;
    this.loader = loader;
    this.running = running;
    this.targets = targets;
  }

  /** Remembers the file as it is now, then checks it every {@code interval}. */
  public void start(Duration interval) {
    lastSeen = read();
    long every = interval.toMillis();
    thread.scheduleWithFixedDelay(this::checkSafely, every, every, TimeUnit.MILLISECONDS);
  }

  /** Reads the file again now, on the reload thread, even if its content looks unchanged. */
  public void reloadNow() {
    thread.execute(
        () -> {
          log.info("reloading configuration {} (signal)", file);
          lastSeen = null;
          checkSafely();
        });
  }

  private void checkSafely() {
    try {
      check();
    } catch (RuntimeException e) {
      log.warn("configuration reload failed, keeping the running targets: {}", e.toString(), e);
    }
  }

  /** Reloads if the file changed since the last look (the scheduler calls it). */
  void check() {
    byte[] now = read();
    if (now == null || Arrays.equals(now, lastSeen)) {
      return;
    }
    lastSeen = now;
    SentinelConfig config;
    try {
      config = loader.load(Optional.of(file), cli);
    } catch (ConfigException e) {
      log.warn(
          "configuration {} changed but is invalid ({} problem(s)); keeping the running targets:"
              + "\n  - {}",
          file,
          e.problems().size(),
          String.join("\n  - ", e.problems()));
      return;
    }
    Set<String> newKeys = running.tagKeys().unknown(config.targets());
    if (!newKeys.isEmpty()) {
      log.warn(
          "configuration {} changed but its targets bring tag keys {} the daemon did not start"
              + " with (known: {}); series of one name need one set of keys, so restart the daemon"
              + " to add keys; keeping the running targets",
          file,
          newKeys,
          running.tagKeys().keys());
      return;
    }
    log.info(
        "configuration {} changed: now {} target(s) from it: {}",
        file,
        config.targets().size(),
        config.targets().stream().map(TargetConfig::name).toList());
    List<String> later = RestartOnlySections.changed(running, config);
    if (!later.isEmpty()) {
      log.warn(
          "configuration {}: {} changed too; only targets reload, restart the daemon to apply"
              + " the rest",
          file,
          later);
    }
    ClientCertificateWarnings.log(config.targets());
    targets.accept(config.targets());
  }

  private byte[] read() {
    try {
      byte[] content = Files.readAllBytes(file);
      unreadableLogged = false;
      return content;
    } catch (IOException e) {
      if (!unreadableLogged) {
        unreadableLogged = true;
        log.warn(
            "cannot read configuration {}, keeping the running targets: {}", file, e.toString());
      }
      return null;
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
