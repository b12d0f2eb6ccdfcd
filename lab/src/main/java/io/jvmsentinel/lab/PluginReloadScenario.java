package io.jvmsentinel.lab;

import java.time.Duration;

/**
 * A healthy service that hot-reloads its plugin now and then, long after warm-up: every request
 * runs through the plugin's {@value Plugin#CLASSES} handler classes, which the traffic keeps hot
 * (compiled by C1 and C2). After {@code --pause} (default {@value #DEFAULT_PAUSE_MINUTES} min, past
 * the daemon's 3-minute warm-up), and again every {@code --phase} (default {@value
 * #DEFAULT_EVERY_MINUTES} min), the host loads a fresh copy of the plugin in a new class loader,
 * switches the traffic to it and drops the old loader; a GC (here at once, as a metaspace threshold
 * would later) unloads the old classes with their compiled code. Each reload compiles the same
 * methods once more: a single reload, not {@code classloader-churn}'s continuous reloading. Onsets
 * {@code steady} (the service), then {@code reload} with its number each time.
 */
final class PluginReloadScenario implements Scenario {

  static final long DEFAULT_PAUSE_MINUTES = 4;
  static final long DEFAULT_EVERY_MINUTES = 3;

  private final LabOptions options;
  private final Duration pause;
  private final Duration every;

  PluginReloadScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(Duration.ofMinutes(DEFAULT_PAUSE_MINUTES));
    this.every = options.phase(Duration.ofMinutes(DEFAULT_EVERY_MINUTES));
  }

  @Override
  public String name() {
    return "plugin-reload";
  }

  @Override
  public String description() {
    return "healthy, its requests through a plugin of "
        + Plugin.CLASSES
        + " hot classes; after --pause (default "
        + DEFAULT_PAUSE_MINUTES
        + "m) and every --phase (default "
        + DEFAULT_EVERY_MINUTES
        + "m) the plugin is reloaded once in a new class loader";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    Plugin plugin = new Plugin();
    Thread service = Phases.startInBackground(new HealthyScenario(options, plugin), log);
    try {
      Thread.sleep(pause.toMillis());
      for (long reload = 1; ; reload++) {
        log.onset("reload", "number", reload, "classes", Plugin.CLASSES);
        plugin.reload();
        // The dropped loader is unreachable now: this GC unloads it and its compiled code.
        System.gc();
        Thread.sleep(every.toMillis());
      }
    } finally {
      service.interrupt();
    }
  }
}
