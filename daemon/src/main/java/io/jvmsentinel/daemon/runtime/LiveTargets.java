package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.config.TargetAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.jvmsentinel.daemon.target.ParallelClose;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 *
 * <p>Sources are taken in the order they first said what they want (the configuration file first),
 * so fixed targets win: a name, or an address (the same pid, the same JMX host and port) another
 * source already has, is skipped (one source may name one address twice on purpose, e.g. with other
 * credentials), and the total is capped at {@code maxTargets}, so a selector that matches far more
 * JVMs than meant cannot exhaust the daemon or the metrics backend. What is skipped is logged when
 * it starts being skipped and counted in {@code jvm_sentinel_targets_skipped}.
 */
public final class LiveTargets implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LiveTargets.class);
  // Each target waits on its own, possibly hung, JVM; all close at once under this deadline,
  // well inside Kubernetes' default 30 s grace period.
  private static final Duration CLOSE_WITHIN = Duration.ofSeconds(10);

  private static final String MAX_TARGETS = "max_targets";
  private static final String SAME_NAME = "same_name";
  private static final String SAME_JVM = "same_jvm";

  private final Function<TargetConfig, WatchedTarget> watch;
  private final MeterRegistry registry;
  private final int maxTargets;
  // Guarded by this: why each skipped target is skipped (logged once per reason), counts by reason
  // and the number of targets each source has running, read by the gauges.
  private Map<String, String> skipped = Map.of();
  private final Map<String, Integer> skippedByReason = new ConcurrentHashMap<>();
  private final Map<String, Integer> runningBySource = new ConcurrentHashMap<>();
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
   * @param maxTargets how many targets may run at once, over all sources
   */
  public LiveTargets(
      Function<TargetConfig, WatchedTarget> watch, MeterRegistry registry, int maxTargets) {
    this.watch = watch;
    this.registry = registry;
    this.maxTargets = maxTargets;
    for (String reason : List.of(MAX_TARGETS, SAME_NAME, SAME_JVM)) {
      SentinelMetric.SENTINEL_TARGETS_SKIPPED.gauge(
          registry,
          Tags.of("reason", reason),
          skippedByReason,
          counts -> counts.getOrDefault(reason, 0));
    }
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
    if (!wanted.containsKey(source)) {
      SentinelMetric.SENTINEL_TARGETS.gauge(
          registry,
          Tags.of("source", source),
          runningBySource,
          counts -> counts.getOrDefault(source, 0));
    }
    wanted.put(source, byName);
    apply();
  }

  private void apply() {
    Map<String, TargetConfig> desired = new LinkedHashMap<>();
    Map<String, String> sourceOf = new HashMap<>();
    // The source that wants each address: another source's target at it is the same JVM again.
    Map<TargetAddress, String> byAddress = new HashMap<>();
    Map<String, String> skipping = new LinkedHashMap<>();
    wanted.forEach(
        (source, targets) ->
            targets.forEach(
                (name, target) -> {
                  String why = skip(desired, byAddress, source, target);
                  if (why != null) {
                    if (!desired.containsKey(name) || !desired.get(name).equals(target)) {
                      skipping.put(source + "/" + name, why);
                    }
                    return;
                  }
                  desired.put(name, target);
                  sourceOf.put(name, source);
                  byAddress.putIfAbsent(target.address(), source);
                }));
    report(skipping);
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
    runningBySource.replaceAll((source, count) -> 0);
    running.keySet().forEach(name -> runningBySource.merge(sourceOf.get(name), 1, Integer::sum));
  }

  /** Why {@code target} is not to run beside {@code desired}, or null when it may run. */
  private String skip(
      Map<String, TargetConfig> desired,
      Map<TargetAddress, String> byAddress,
      String source,
      TargetConfig target) {
    if (desired.containsKey(target.name())) {
      return SAME_NAME;
    }
    String owner = byAddress.get(target.address());
    if (owner != null && !owner.equals(source)) {
      return SAME_JVM;
    }
    return desired.size() >= maxTargets ? MAX_TARGETS : null;
  }

  /** Logs each target when it starts being skipped (not at every listing), and counts them. */
  private void report(Map<String, String> skipping) {
    skipping.forEach(
        (target, reason) -> {
          if (!reason.equals(skipped.get(target))) {
            log.warn("not watching {}: {}", target, explain(reason));
          }
        });
    skipped = Map.copyOf(skipping);
    skippedByReason.replaceAll((reason, count) -> 0);
    skipping.values().forEach(reason -> skippedByReason.merge(reason, 1, Integer::sum));
  }

  private String explain(String reason) {
    return switch (reason) {
      case SAME_NAME -> "another source has a target of that name";
      case SAME_JVM -> "its address is watched already, under another name";
      default ->
          "the daemon watches "
              + maxTargets
              + " targets already (discovery.maxTargets); narrow discovery's include filters or"
              + " run a second daemon";
    };
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
    DaemonThreads.start("close-" + name, () -> closeAndForget(target));
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
