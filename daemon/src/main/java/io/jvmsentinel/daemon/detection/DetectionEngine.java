package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.FiringAlertRecord;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.SignalHistory;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every rule over every target every few seconds, and turns findings into alerts.
 *
 * <p>Implementation notes. Each tick samples each target's signals into its history, then lets each
 * rule report the keys whose condition holds. An alert per (rule, target, key) moves from pending
 * to firing once its condition has held for the rule's {@code pendingFor}, and resolves once the
 * condition has stayed clear for {@code clearFor}; rules apply lower resolve thresholds to keys
 * that are firing (hysteresis), so a rate hovering at a threshold does not flap. Firing and
 * resolved alerts go to the listener, which queues delivery: the tick never blocks on a sink. All
 * state is confined to the engine's thread; {@link #active()} returns a copy.
 *
 * <p>Firing alerts are kept in an {@link AlertStateFile}. A restarted daemon takes those back as
 * firing, of unknown condition: if the condition holds again the alert simply continues (same dedup
 * key, no second page); if it stays clear through the restore grace (the rules need some history
 * before they can tell) and then the rule's {@code clearFor}, the resolve is sent. Alerts of a rule
 * no longer configured are resolved at the first tick. Alerts of a target not (yet) watched wait
 * for it through the restore grace, since discovery finds targets after the start; a target that
 * does not come back by then has its alerts resolved.
 */
public final class DetectionEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DetectionEngine.class);
  private static final Duration HISTORY = Duration.ofMinutes(15);

  private final Supplier<List<WatchedTarget>> targets;
  private final MeterRegistry registry;
  // The meters this engine registered per target, removed with the target.
  private final Map<String, List<Meter>> targetMeters = new HashMap<>();
  // The instance tracked per name: a target restarted under the same name is a new one.
  private final Map<String, WatchedTarget> trackedTargets = new HashMap<>();
  private final List<AlertRule> rules;
  private final RuleSettings settings;
  private final AlertListener listener;
  private final EvidenceSnapshots snapshots;
  private final Clock clock;
  private final Duration interval;
  private final WarmUp warmUp;
  private final AlertStateFile stateFile;
  private final Duration restoreGrace;
  private final SignalRecorder recorder;
  private final List<FiringAlertRecord> orphans = new ArrayList<>();
  // Restored alerts whose target is not watched (yet): discovery may bring it back.
  private final List<FiringAlertRecord> awaitingTarget = new ArrayList<>();
  // The tags of each tracked target, for its notifications.
  private final Map<String, Map<String, String>> targetTags = new HashMap<>();
  private Instant restoreGraceEnds;
  private boolean stateChanged;
  private final Map<String, SignalHistory> histories = new ConcurrentHashMap<>();
  private final Map<String, Boolean> warmingUp = new ConcurrentHashMap<>();
  private final Map<String, Tracked> alerts = new LinkedHashMap<>();
  private final Map<String, Integer> firingCounts = new ConcurrentHashMap<>();
  private volatile List<ActiveAlert> published = List.of();
  private final ScheduledExecutorService thread;

  private static final class Tracked {
    ActiveAlert alert;
    Instant clearSince;
    // Taken back from the state file and not yet seen holding by this daemon.
    boolean restored;
    // Until when a restored alert may not resolve; null: the engine's restore grace.
    Instant restoredUntil;

    Tracked(ActiveAlert alert) {
      this.alert = alert;
    }
  }

  /**
   * @param targets the targets now; each tick reads it, starts tracking new targets and resolves
   *     the alerts of removed ones
   */
  public DetectionEngine(
      Supplier<List<WatchedTarget>> targets,
      List<AlertRule> rules,
      RuleSettings settings,
      AlertListener listener,
      EvidenceSnapshots snapshots,
      MeterRegistry registry,
      Clock clock,
      Duration interval,
      WarmUp warmUp,
      AlertStateFile stateFile,
      Duration restoreGrace,
      SignalRecorder recorder) {
    this.targets = targets;
    this.registry = registry;
    this.rules = List.copyOf(rules);
    this.settings = settings;
    this.listener = listener;
    this.snapshots = snapshots;
    this.clock = clock;
    this.interval = interval;
    this.warmUp = warmUp;
    this.stateFile = stateFile;
    this.restoreGrace = restoreGrace;
    this.recorder = recorder;
    targets.get().forEach(this::track);
    restore(stateFile.load());
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "detection");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts the history, warm-up state and alert gauges of a target this engine has not seen. */
  private void track(WatchedTarget target) {
    String name = target.name();
    histories.putIfAbsent(name, new SignalHistory(HISTORY));
    warmingUp.putIfAbsent(name, true);
    List<Meter> meters = new ArrayList<>();
    meters.add(
        SentinelMetric.SENTINEL_TARGET_WARMING_UP.gauge(
            registry,
            target.session().tags(),
            warmingUp,
            states -> states.getOrDefault(name, true) ? 1 : 0));
    for (AlertRule rule : rules) {
      String counter = counterKey(rule.id(), name);
      firingCounts.put(counter, 0);
      meters.add(
          SentinelMetric.SENTINEL_ALERT_ACTIVE.gauge(
              registry,
              target.session().tags().and("alert", rule.id(), "severity", rule.severity().tag()),
              firingCounts,
              counts -> counts.getOrDefault(counter, 0)));
    }
    targetMeters.put(name, meters);
    trackedTargets.put(name, target);
    targetTags.put(name, tagsOf(target));
  }

  /** The target's tags that have a value, without its name (that is the alert's target). */
  private static Map<String, String> tagsOf(WatchedTarget target) {
    Map<String, String> tags = new LinkedHashMap<>();
    target
        .session()
        .tags()
        .forEach(
            tag -> {
              if (!tag.getKey().equals("target") && !tag.getValue().isEmpty()) {
                tags.put(tag.getKey(), tag.getValue());
              }
            });
    return tags;
  }

  /**
   * Forgets a removed target: its alerts resolve now (a target that is gone cannot tell whether the
   * condition cleared, and nobody should stay paged for it), its history and gauges go.
   */
  private void forget(String target, Instant now) {
    for (Map.Entry<String, Tracked> entry : List.copyOf(alerts.entrySet())) {
      ActiveAlert alert = entry.getValue().alert;
      if (!alert.target().equals(target)) {
        continue;
      }
      alerts.remove(entry.getKey());
      if (alert.state() == ActiveAlert.State.FIRING) {
        resolveUnseen(
            alert, "the target was removed", now, targetTags.getOrDefault(target, Map.of()));
      }
    }
    histories.remove(target);
    warmingUp.remove(target);
    firingCounts.keySet().removeIf(key -> key.endsWith("|" + target));
    targetMeters.getOrDefault(target, List.of()).forEach(registry::remove);
    targetMeters.remove(target);
    trackedTargets.remove(target);
    targetTags.remove(target);
  }

  /** Takes back the alerts a previous daemon left firing. */
  private void restore(List<FiringAlertRecord> records) {
    for (FiringAlertRecord record : records) {
      if (rules.stream().noneMatch(rule -> rule.id().equals(record.ruleId()))) {
        orphans.add(record);
      } else if (!histories.containsKey(record.target())) {
        awaitingTarget.add(record);
      } else {
        adopt(record, null);
      }
    }
    if (!records.isEmpty()) {
      log.info(
          "restored {} firing alert(s) from {}: they continue if their condition still holds,"
              + " else they resolve",
          records.size(),
          stateFile.path().map(Path::toString).orElse("the alert state"));
    }
  }

  /** Continues a restored alert of a tracked target, held from resolving until {@code until}. */
  private void adopt(FiringAlertRecord record, Instant until) {
    Tracked tracked = new Tracked(restoredAlert(record));
    tracked.restored = true;
    tracked.restoredUntil = until;
    alerts.put(record.id(), tracked);
  }

  private static ActiveAlert restoredAlert(FiringAlertRecord record) {
    return new ActiveAlert(
        record.ruleId(),
        record.target(),
        record.key(),
        record.severity(),
        ActiveAlert.State.FIRING,
        record.startedAt(),
        record.startedAt(),
        restoredFinding(record),
        record.snapshot());
  }

  /**
   * Restored alerts whose target is watched now continue (with a fresh grace: its rules have no
   * history yet); once the restore grace is over, those whose target never came back resolve.
   */
  private void adoptOrResolveAwaiting(Instant now) {
    for (FiringAlertRecord record : List.copyOf(awaitingTarget)) {
      if (trackedTargets.containsKey(record.target())) {
        awaitingTarget.remove(record);
        adopt(record, now.plus(restoreGrace));
        stateChanged = true;
      } else if (!now.isBefore(restoreGraceEnds)) {
        awaitingTarget.remove(record);
        resolveUnseen(
            restoredAlert(record),
            "the target did not come back after the daemon restart",
            now,
            record.targetTags());
      }
    }
  }

  private static Finding restoredFinding(FiringAlertRecord record) {
    return new Finding(
        record.key(),
        record.summary(),
        "Restored from the alert state file after a daemon restart; the condition was not"
            + " observed again.",
        "",
        Map.of("restored", true));
  }

  public void start() {
    thread.scheduleWithFixedDelay(
        this::tickSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Alerts pending or firing now, firing first, then by rule and target. */
  public List<ActiveAlert> active() {
    return published;
  }

  private void tickSafely() {
    try {
      tick();
    } catch (RuntimeException e) {
      log.warn("detection tick failed: {}", e.toString(), e);
    }
  }

  /** One evaluation of every rule over every target (the scheduler calls it; tests too). */
  public void tick() {
    Instant now = clock.instant();
    if (restoreGraceEnds == null) {
      restoreGraceEnds = now.plus(restoreGrace);
      resolveOrphans(now);
    }
    List<WatchedTarget> current = targets.get();
    Set<WatchedTarget> live = Collections.newSetFromMap(new IdentityHashMap<>());
    live.addAll(current);
    for (Map.Entry<String, WatchedTarget> known : List.copyOf(trackedTargets.entrySet())) {
      if (!live.contains(known.getValue())) {
        forget(known.getKey(), now);
      }
    }
    for (WatchedTarget target : current) {
      if (!trackedTargets.containsKey(target.name())) {
        track(target);
      }
    }
    adoptOrResolveAwaiting(now);
    for (WatchedTarget target : current) {
      observe(target.name(), SignalSampler.sample(target, now));
    }
    publish();
    if (stateChanged) {
      stateChanged = false;
      stateFile.save(firingRecords());
    }
  }

  /**
   * Adds one sample of a target to its history and runs every rule over it: what a tick does per
   * target, and what a replay of a recorded timeline calls directly (rules read only the history).
   */
  void observe(String target, SignalSample sample) {
    SignalHistory history = histories.computeIfAbsent(target, t -> new SignalHistory(HISTORY));
    history.add(sample);
    recorder.record(target, sample);
    boolean warming = warmUp.warmingUp(history);
    warmingUp.put(target, warming);
    for (AlertRule rule : rules) {
      evaluate(rule, target, history, warming, sample.at());
    }
  }

  /** The signal history of a target (the last 15 minutes of samples), for windowed reports. */
  public Optional<SignalHistory> history(String target) {
    return Optional.ofNullable(histories.get(target));
  }

  /** Whether the target is still warming up (JIT rules then wait for unambiguous signatures). */
  public boolean warmingUp(String target) {
    return warmingUp.getOrDefault(target, true);
  }

  /** Resolves restored alerts whose rule this daemon no longer has. */
  private void resolveOrphans(Instant now) {
    for (FiringAlertRecord orphan : orphans) {
      resolveUnseen(
          restoredAlert(orphan), "the rule is no longer configured", now, orphan.targetTags());
    }
    orphans.clear();
  }

  /** Sends the resolve of a firing alert whose rule can no longer evaluate it, saying why. */
  private void resolveUnseen(ActiveAlert alert, String why, Instant now, Map<String, String> tags) {
    AlertTransitionLog.resolved(alert.ruleId(), alert.target(), alert.key(), why);
    listener.notify(
        notification(
            alert.ruleId(),
            "alerts/runbooks/" + alert.ruleId() + ".md",
            alert,
            AlertNotification.Status.RESOLVED,
            now,
            tags));
    stateChanged = true;
  }

  /** The firing alerts, and the restored ones still waiting for their target, for the file. */
  private List<FiringAlertRecord> firingRecords() {
    List<FiringAlertRecord> records = new ArrayList<>(awaitingTarget);
    alerts.values().stream()
        .map(tracked -> tracked.alert)
        .filter(alert -> alert.state() == ActiveAlert.State.FIRING)
        .map(
            alert ->
                new FiringAlertRecord(
                    alert.ruleId(),
                    alert.target(),
                    alert.key(),
                    alert.severity(),
                    alert.since(),
                    alert.finding().summary(),
                    alert.snapshot(),
                    targetTags.getOrDefault(alert.target(), Map.of())))
        .forEach(records::add);
    return records;
  }

  private void evaluate(
      AlertRule rule, String target, SignalHistory history, boolean warming, Instant now) {
    if (heldDuringStormPause(rule, history)) {
      return;
    }
    String prefix = rule.id() + "|" + target + "|";
    Set<String> firing =
        alerts.entrySet().stream()
            .filter(e -> e.getKey().startsWith(prefix))
            .filter(e -> e.getValue().alert.state() == ActiveAlert.State.FIRING)
            .map(e -> e.getValue().alert.key())
            .collect(Collectors.toSet());
    RuleContext context =
        new RuleContext(target, history, settings.thresholds(rule, target), firing, warming, now);
    List<Finding> findings;
    try {
      findings = rule.evaluate(context);
    } catch (RuntimeException e) {
      log.warn("rule {} failed on target {}: {}", rule.id(), target, e.toString(), e);
      return;
    }
    Map<String, Finding> byKey = new HashMap<>();
    findings.forEach(finding -> byKey.put(finding.key(), finding));
    for (Finding finding : findings) {
      holds(rule, target, finding, now);
    }
    for (Map.Entry<String, Tracked> entry : List.copyOf(alerts.entrySet())) {
      ActiveAlert alert = entry.getValue().alert;
      if (entry.getKey().startsWith(prefix) && !byKey.containsKey(alert.key())) {
        clear(rule, entry.getKey(), entry.getValue(), now);
      }
    }
    firingCounts.put(
        counterKey(rule.id(), target),
        (int)
            alerts.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .filter(e -> e.getValue().alert.state() == ActiveAlert.State.FIRING)
                .count());
  }

  /**
   * A rule that needs JFR is not evaluated while the daemon has paused the stream for a heavy
   * thread storm: no data then is not a resolve, and an alert firing at the pause picks up after.
   */
  static boolean heldDuringStormPause(AlertRule rule, SignalHistory history) {
    return rule.needsJfr() && history.latest().map(SignalSample::jfrStormPaused).orElse(false);
  }

  private void holds(AlertRule rule, String target, Finding finding, Instant now) {
    String id = rule.id() + "|" + target + "|" + finding.key();
    Tracked tracked = alerts.get(id);
    if (tracked == null) {
      tracked =
          new Tracked(
              new ActiveAlert(
                  rule.id(),
                  target,
                  finding.key(),
                  rule.severity(),
                  ActiveAlert.State.PENDING,
                  now,
                  now,
                  finding,
                  null));
      alerts.put(id, tracked);
    }
    tracked.clearSince = null;
    boolean continuedAfterRestart = tracked.restored;
    if (tracked.restored) {
      tracked.restored = false;
      AlertTransitionLog.continuedAfterRestart(rule.id(), target, finding.key());
    }
    ActiveAlert alert = tracked.alert;
    if (alert.state() == ActiveAlert.State.PENDING
        && !now.isBefore(alert.since().plus(rule.pendingFor()))) {
      Optional<String> snapshot = snapshots.take(target, rule.id(), now);
      tracked.alert =
          new ActiveAlert(
              rule.id(),
              target,
              finding.key(),
              rule.severity(),
              ActiveAlert.State.FIRING,
              now,
              now,
              finding,
              snapshot.orElse(null));
      AlertTransitionLog.firing(rule.id(), target, finding.key(), finding.summary());
      listener.notify(notification(rule, tracked.alert, AlertNotification.Status.FIRING, now));
      stateChanged = true;
    } else {
      tracked.alert =
          new ActiveAlert(
              alert.ruleId(),
              target,
              alert.key(),
              alert.severity(),
              alert.state(),
              alert.since(),
              now,
              finding,
              alert.snapshot());
      if (continuedAfterRestart) {
        listener.continued(notification(rule, tracked.alert, AlertNotification.Status.FIRING, now));
      }
    }
  }

  private void clear(AlertRule rule, String id, Tracked tracked, Instant now) {
    if (tracked.alert.state() == ActiveAlert.State.PENDING) {
      alerts.remove(id);
      return;
    }
    Instant graceEnds = tracked.restoredUntil != null ? tracked.restoredUntil : restoreGraceEnds;
    if (tracked.restored && now.isBefore(graceEnds)) {
      return; // Too early to tell: the rule may not have enough history yet.
    }
    if (tracked.clearSince == null) {
      tracked.clearSince = now;
    }
    if (!now.isBefore(tracked.clearSince.plus(rule.clearFor()))) {
      alerts.remove(id);
      AlertTransitionLog.resolved(rule.id(), tracked.alert.target(), tracked.alert.key());
      listener.notify(notification(rule, tracked.alert, AlertNotification.Status.RESOLVED, now));
      stateChanged = true;
    }
  }

  private AlertNotification notification(
      AlertRule rule, ActiveAlert alert, AlertNotification.Status status, Instant now) {
    return notification(
        rule.id(),
        rule.runbook(),
        alert,
        status,
        now,
        targetTags.getOrDefault(alert.target(), Map.of()));
  }

  private static AlertNotification notification(
      String ruleId,
      String runbook,
      ActiveAlert alert,
      AlertNotification.Status status,
      Instant now,
      Map<String, String> tags) {
    Finding finding = alert.finding();
    return new AlertNotification(
            ruleId,
            alert.target(),
            alert.key(),
            alert.severity(),
            status,
            alert.since(),
            now,
            status == AlertNotification.Status.RESOLVED
                ? "RESOLVED: " + finding.summary()
                : finding.summary(),
            finding.explanation(),
            finding.action(),
            runbook,
            finding.evidence(),
            Optional.ofNullable(alert.snapshot()))
        .withTargetTags(tags);
  }

  private void publish() {
    List<ActiveAlert> list = new ArrayList<>();
    alerts.values().forEach(tracked -> list.add(tracked.alert));
    list.sort(
        Comparator.comparing((ActiveAlert a) -> a.state() == ActiveAlert.State.FIRING ? 0 : 1)
            .thenComparing(ActiveAlert::ruleId)
            .thenComparing(ActiveAlert::target));
    published = List.copyOf(list);
  }

  private static String counterKey(String rule, String target) {
    return rule + "|" + target;
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    recorder.close();
  }
}
