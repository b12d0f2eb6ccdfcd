package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.target.ParallelClose;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The targets the daemon watches now. Each source (the configuration file, a discovery provider)
 * says which targets it wants; this set starts the new ones and closes the ones no source wants any
 * more, then removes their series. HTTP routes, detection and snapshots read {@link #list()}.
 *
 * <p>Closing a target may wait on a hung JVM, so it runs on a thread of its own and never delays
 * the caller or another target. A name whose old target is still closing is started once that close
 * has finished (its series are removed first, so they never mix).
 */
public final class LiveTargets implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LiveTargets.class);
  // Each target waits on its own, possibly hung, JVM; all close at once under this deadline,
  // well inside Kubernetes' default 30 s grace period.
  private static final Duration CLOSE_WITHIN = Duration.ofSeconds(10);

  private final Function<TargetConfig, WatchedTarget> watch;
  private final MeterRegistry registry;
  // Guarded by this: what each source wants, what runs, and what is still closing.
  private final Map<String, Map<String, TargetConfig>> wanted = new LinkedHashMap<>();
  private final Map<String, WatchedTarget> running = new LinkedHashMap<>();
  private final Map<String, TargetConfig> runningConfigs = new LinkedHashMap<>();
  private final Set<String> closing = new HashSet<>();
  private boolean closed;
  private volatile List<WatchedTarget> published = List.of();

  /**
   * @param watch builds (without starting) everything the daemon runs for one target
   * @param registry where the targets' series are, removed with the target
   */
  public LiveTargets(Function<TargetConfig, WatchedTarget> watch, MeterRegistry registry) {
    this.watch = watch;
    this.registry = registry;
  }

  /** The targets watched now, in the order they were added. */
  public List<WatchedTarget> list() {
    return published;
  }

  public Optional<JfrStreamSession> stream(String name) {
    return published.stream()
        .filter(target -> target.name().equals(name))
        .findFirst()
        .map(WatchedTarget::stream);
  }

  /**
   * Replaces what {@code source} wants with {@code targets}: starts those not running yet, closes
   * those no source wants. A target whose configuration changed is restarted. The first source to
   * want a name owns it; another source's target of the same name is ignored with a warning.
   */
  public synchronized void want(String source, List<TargetConfig> targets) {
    if (closed) {
      return;
    }
    Map<String, TargetConfig> byName = new LinkedHashMap<>();
    for (TargetConfig target : targets) {
      byName.put(target.name(), target);
    }
    wanted.put(source, byName);
    apply();
  }

  private void apply() {
    Map<String, TargetConfig> desired = new LinkedHashMap<>();
    wanted.forEach(
        (source, targets) ->
            targets.forEach(
                (name, target) -> {
                  TargetConfig first = desired.putIfAbsent(name, target);
                  if (first != null && !first.equals(target)) {
                    log.warn("target {} of {} ignored: another source has that name", name, source);
                  }
                }));
    for (String name : List.copyOf(running.keySet())) {
      TargetConfig now = desired.get(name);
      if (now == null || !now.equals(runningConfigs.get(name))) {
        stop(name, now == null ? "no longer wanted" : "its configuration changed");
      }
    }
    desired.forEach(
        (name, target) -> {
          if (!running.containsKey(name) && !closing.contains(name)) {
            start(target);
          }
        });
    published = List.copyOf(running.values());
  }

  private void start(TargetConfig config) {
    WatchedTarget target;
    try {
      target = watch.apply(config);
    } catch (RuntimeException e) {
      log.warn("cannot watch target {}: {}", config.name(), e.toString(), e);
      return;
    }
    running.put(config.name(), target);
    runningConfigs.put(config.name(), config);
    target.start();
    log.info("watching target {} at {}", config.name(), config.address());
  }

  private void stop(String name, String why) {
    WatchedTarget target = running.remove(name);
    runningConfigs.remove(name);
    closing.add(name);
    log.info("no longer watching target {}: {}", name, why);
    Thread closer = new Thread(() -> closeAndForget(target), "close-" + name);
    closer.setDaemon(true);
    closer.start();
  }

  private void closeAndForget(WatchedTarget target) {
    ParallelClose.closeAll(List.of(target), WatchedTarget::name, CLOSE_WITHIN);
    removeSeries(target.name());
    synchronized (this) {
      closing.remove(target.name());
      if (!closed) {
        apply(); // the name may be wanted again already (a restarted JVM, a changed config)
      }
    }
  }

  /** Removes every series tagged with the target, so a gone target leaves nothing behind. */
  private void removeSeries(String name) {
    List<Meter> meters = new ArrayList<>();
    registry
        .getMeters()
        .forEach(
            meter -> {
              if (name.equals(meter.getId().getTag("target"))) {
                meters.add(meter);
              }
            });
    meters.forEach(registry::remove);
  }

  /** Closes every running target at once, under one deadline. */
  @Override
  public void close() {
    List<WatchedTarget> all;
    synchronized (this) {
      closed = true;
      all = List.copyOf(running.values());
      running.clear();
      runningConfigs.clear();
      published = List.of();
    }
    ParallelClose.closeAll(all, WatchedTarget::name, CLOSE_WITHIN);
  }
}
