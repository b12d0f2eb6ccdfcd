package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertKey;
import io.jvmsentinel.daemon.alert.AlertLifecycle;
import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.FiringAlertRecord;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.SignalHistory;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every rule over every target every few seconds, and turns findings into alerts.
 *
 * <p>Implementation notes. Each tick reads every target's signals from its {@link SignalSource}
 * into the target's history, then lets each rule report, over a snapshot of that history, the keys
 * whose condition holds. The {@link AlertLifecycle} turns those findings into transitions (fired,
 * updated, continued, resolved); this engine takes the evidence snapshot of a firing alert, logs
 * each transition, and hands it to the listener, which queues delivery: the tick never blocks on a
 * sink. All state is confined to the engine's thread; {@link #active()} returns a copy.
 *
 * <p>Firing alerts are kept in an {@link AlertStateFile}. A restarted daemon takes those back as
 * firing, of unknown condition (see {@link AlertLifecycle}). Alerts of a rule no longer configured
 * are resolved at the first tick. Alerts of a target not (yet) watched wait for it through the
 * restore grace, since discovery finds targets after the start; a target that does not come back by
 * then has its alerts resolved.
 */
public final class DetectionEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DetectionEngine.class);
  private static final Duration HISTORY = Duration.ofMinutes(15);

  private final SignalSource source;
  private final MeterRegistry registry;
  // The meters this engine registered per target, removed with the target.
  private final Map<String, List<Meter>> targetMeters = new HashMap<>();
  // The instance tracked per name: a target restarted under the same name is a new one.
  private final Map<String, Object> trackedInstances = new HashMap<>();
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
  private final AlertLifecycle lifecycle = new AlertLifecycle();
  private final List<FiringAlertRecord> orphans = new ArrayList<>();
  // Restored alerts whose target is not watched (yet): discovery may bring it back.
  private final List<FiringAlertRecord> awaitingTarget = new ArrayList<>();
  // The tags of each tracked target, for its notifications.
  private final Map<String, Map<String, String>> targetTags = new HashMap<>();
  private Instant restoreGraceEnds;
  private boolean stateChanged;
  private final Map<String, SignalHistory> histories = new ConcurrentHashMap<>();
  private final Map<String, Boolean> warmingUp = new ConcurrentHashMap<>();
  private final Map<String, Integer> firingCounts = new ConcurrentHashMap<>();
  private volatile List<ActiveAlert> published = List.of();
  // Why a rule was not judged on a target at its last tick, by counterKey: its alerts hold as they
  // were, and the status page says so instead of showing them as plainly firing.
  private final Map<String, String> holds = new HashMap<>();
  private volatile Map<String, String> publishedHolds = Map.of();
  private final ScheduledExecutorService thread;

  /**
   * @param source the targets now with their signals; each tick reads it, starts tracking new
   *     targets and resolves the alerts of removed ones
   */
  public DetectionEngine(
      SignalSource source,
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
    this.source = source;
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
    restore(stateFile.load());
    this.thread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("detection"));
  }

  /** Starts the history, warm-up state and alert gauges of a target this engine has not seen. */
  private void track(TargetSignals target) {
    String name = target.name();
    histories.putIfAbsent(name, new SignalHistory(HISTORY));
    warmingUp.putIfAbsent(name, true);
    List<Meter> meters = new ArrayList<>();
    meters.add(
        SentinelMetric.SENTINEL_TARGET_WARMING_UP.gauge(
            registry, target.tags(), warmingUp, states -> states.getOrDefault(name, true) ? 1 : 0));
    for (AlertRule rule : rules) {
      String counter = counterKey(rule.id(), name);
      firingCounts.put(counter, 0);
      meters.add(
          SentinelMetric.SENTINEL_ALERT_ACTIVE.gauge(
              registry,
              target.tags().and("alert", rule.id(), "severity", rule.severity().tag()),
              firingCounts,
              counts -> counts.getOrDefault(counter, 0)));
    }
    targetMeters.put(name, meters);
    trackedInstances.put(name, target.instance());
    targetTags.put(name, tagsOf(target));
  }

  /** The target's tags that have a value, without its name (that is the alert's target). */
  private static Map<String, String> tagsOf(TargetSignals target) {
    Map<String, String> tags = new LinkedHashMap<>();
    target
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
    deliver(lifecycle.endTarget(target, "the target was removed"), now);
    histories.remove(target);
    warmingUp.remove(target);
    firingCounts.keySet().removeIf(key -> key.endsWith("|" + target));
    holds.keySet().removeIf(key -> key.endsWith("|" + target));
    targetMeters.getOrDefault(target, List.of()).forEach(registry::remove);
    targetMeters.remove(target);
    trackedInstances.remove(target);
    targetTags.remove(target);
  }

  /**
   * Takes back the alerts a previous daemon left firing; they wait for their target's first tick.
   */
  private void restore(List<FiringAlertRecord> records) {
    for (FiringAlertRecord record : records) {
      if (rules.stream().noneMatch(rule -> rule.id().equals(record.ruleId()))) {
        orphans.add(record);
      } else {
        awaitingTarget.add(record);
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

  /**
   * Restored alerts whose target is watched now continue (held from resolving through the restore
   * grace: its rules have no history yet); once the restore grace is over, those whose target never
   * came back resolve.
   */
  private void adoptOrResolveAwaiting(Instant now) {
    for (FiringAlertRecord record : List.copyOf(awaitingTarget)) {
      if (trackedInstances.containsKey(record.target())) {
        awaitingTarget.remove(record);
        lifecycle.restore(record, now.plus(restoreGrace));
        if (record.snapshot() != null && !Files.isRegularFile(Path.of(record.snapshot()))) {
          // Pruned, or the directory was not kept across the restart: never advertise it.
          lifecycle.attachSnapshot(
              record.alertKey(),
              null,
              "the snapshot " + record.snapshot() + " is gone since the daemon restarted");
        }
        stateChanged = true;
      } else if (!now.isBefore(restoreGraceEnds)) {
        awaitingTarget.remove(record);
        resolveRestored(record, "the target did not come back after the daemon restart", now);
      }
    }
  }

  public void start() {
    thread.scheduleWithFixedDelay(
        this::tickSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Alerts pending or firing now, firing first, then by rule and target. */
  public List<ActiveAlert> active() {
    return published;
  }

  /**
   * Why this alert's rule was not judged at the last tick (the target does not answer, or its JFR
   * stream is paused for a storm): the alert holds as it was, neither resolved nor paged again.
   */
  public Optional<String> heldBecause(ActiveAlert alert) {
    return Optional.ofNullable(publishedHolds.get(counterKey(alert.ruleId(), alert.target())));
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
      lifecycle.restoreGraceEndsAt(restoreGraceEnds);
      resolveOrphans(now);
    }
    List<TargetSignals> current = source.read(now);
    Map<String, Object> live = new HashMap<>();
    current.forEach(target -> live.put(target.name(), target.instance()));
    for (Map.Entry<String, Object> known : List.copyOf(trackedInstances.entrySet())) {
      // A target restarted under the same name is a new one: forget the old, track the new.
      if (live.get(known.getKey()) != known.getValue()) {
        forget(known.getKey(), now);
      }
    }
    for (TargetSignals target : current) {
      if (!trackedInstances.containsKey(target.name())) {
        track(target);
      }
    }
    adoptOrResolveAwaiting(now);
    for (TargetSignals target : current) {
      observe(target.name(), target.sample());
    }
    settleSnapshots(now);
    published = lifecycle.alerts();
    publishedHolds = Map.copyOf(holds);
    if (stateChanged) {
      stateChanged = false;
      stateFile.save(firingRecords());
    }
  }

  /** Adds one sample of a target to its history and runs every rule over it. */
  private void observe(String target, SignalSample sample) {
    SignalHistory history = histories.computeIfAbsent(target, t -> new SignalHistory(HISTORY));
    history.add(sample);
    recorder.record(target, sample);
    SignalWindow window = history.snapshot();
    WarmUp.Phase warming = warmUp.phase(window);
    warmingUp.put(target, warming.warmingUp());
    for (AlertRule rule : rules) {
      evaluate(rule, target, window, warming, sample.at());
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
      resolveRestored(orphan, "the rule is no longer configured", now);
    }
    orphans.clear();
  }

  /** Sends the resolve of a restored alert that no rule can evaluate any more, saying why. */
  private void resolveRestored(FiringAlertRecord record, String why, Instant now) {
    ActiveAlert alert = AlertLifecycle.restoredAlert(record);
    AlertTransitionLog.resolved(record.alertKey(), why);
    listener.notify(
        notification(
            "alerts/runbooks/" + alert.ruleId() + ".md",
            alert,
            AlertNotification.Status.RESOLVED,
            now,
            record.targetTags()));
    stateChanged = true;
  }

  /** The firing alerts, and the restored ones still waiting for their target, for the file. */
  private List<FiringAlertRecord> firingRecords() {
    List<FiringAlertRecord> records = new ArrayList<>(awaitingTarget);
    records.addAll(lifecycle.firingRecords(targetTags));
    return records;
  }

  private void evaluate(
      AlertRule rule,
      String target,
      SignalWindow history,
      WarmUp.Phase warming,
      Instant sampledAt) {
    Map<String, Double> thresholds = settings.thresholds(rule, target);
    Optional<String> held = holdReason(rule, history, thresholds);
    if (held.isPresent()) {
      holds.put(counterKey(rule.id(), target), held.get());
      return;
    }
    holds.remove(counterKey(rule.id(), target));
    RuleContext context =
        new RuleContext(
            target,
            history,
            thresholds,
            lifecycle.firingKeys(rule.id(), target),
            warming,
            sampledAt);
    List<Finding> findings;
    try {
      findings = rule.evaluate(context);
    } catch (RuntimeException e) {
      log.warn("rule {} failed on target {}: {}", rule.id(), target, e.toString(), e);
      return;
    }
    deliver(
        lifecycle.evaluate(AlertLifecycle.RuleTiming.of(rule), target, findings, sampledAt),
        sampledAt);
    firingCounts.put(counterKey(rule.id(), target), lifecycle.firingCount(rule.id(), target));
  }

  /** Why the rule is not judged on this history now, as the status page says it; empty: judged. */
  static Optional<String> holdReason(
      AlertRule rule, SignalWindow history, Map<String, Double> thresholds) {
    if (heldWhileUnreachable(rule, history, thresholds)) {
      SignalSample latest = history.latest().orElseThrow();
      Instant down = latest.at().minusMillis((long) (latest.downSeconds() * 1000));
      return Optional.of(
          "held since "
              + down.truncatedTo(ChronoUnit.SECONDS)
              + ": the target does not answer, so this rule is not judged; the alert neither"
              + " resolves nor pages again until the target's data shows its condition clear");
    }
    if (heldDuringStormPause(rule, history)) {
      return Optional.of(
          "held: the daemon paused the JFR stream during a heavy thread storm, so this rule is not"
              + " judged until the stream is back");
    }
    return Optional.empty();
  }

  /**
   * A rule that needs JFR is not evaluated while the daemon has paused the stream for a heavy
   * thread storm: no data then is not a resolve, and an alert firing at the pause picks up after.
   */
  static boolean heldDuringStormPause(AlertRule rule, SignalWindow history) {
    return rule.needsJfr() && history.latest().map(SignalSample::jfrStormPaused).orElse(false);
  }

  /**
   * While the target does not answer, a rule about its data has none: that is not a resolve (a JVM
   * thrashing in GC until it stops answering JMX is worse, not better), nor a reason to page. Its
   * alerts hold until data comes back and shows their condition clear or holding. TargetDown, the
   * rule about the connection itself, reads no data of the target and is judged.
   */
  static boolean heldWhileUnreachable(
      AlertRule rule, SignalWindow history, Map<String, Double> thresholds) {
    return !history.latest().map(SignalSample::up).orElse(true)
        && rule.inputs(thresholds).stream()
            .anyMatch(input -> input.signal() != RuleInput.Signal.CONNECTION);
  }

  /**
   * Names each settled snapshot in its alert, or says why it has none, through every sink (an
   * update: same alert, no new page). A snapshot of an alert that resolved meanwhile names nothing.
   */
  private void settleSnapshots(Instant now) {
    for (EvidenceSnapshots.Settled done : snapshots.settled()) {
      if (lifecycle.firingSince(done.alert(), done.firedAt()).isEmpty()) {
        continue;
      }
      ActiveAlert alert = lifecycle.attachSnapshot(done.alert(), done.file(), done.unavailable());
      AlertTransitionLog.snapshotSettled(
          done.alert(), done.file() != null ? done.file() : "none: " + done.unavailable());
      listener.notify(
          notification(runbookOf(alert.ruleId()), alert, AlertNotification.Status.UPDATED, now));
      stateChanged = true;
    }
  }

  /** Logs each transition and hands it to the listener; a firing alert starts its snapshot. */
  private void deliver(List<AlertLifecycle.Transition> transitions, Instant now) {
    for (AlertLifecycle.Transition transition : transitions) {
      ActiveAlert alert = transition.alert();
      AlertKey key = alert.alertKey();
      String runbook = runbookOf(alert.ruleId());
      switch (transition.change()) {
        case FIRED -> {
          // The page goes out now; the snapshot is named by an update once checked whole.
          alert = lifecycle.attachSnapshot(key, null, snapshots.take(alert));
          AlertTransitionLog.firing(key, alert.finding().summary());
          listener.notify(notification(runbook, alert, AlertNotification.Status.FIRING, now));
        }
        case UPDATED -> {
          AlertTransitionLog.updated(key, alert.finding().summary());
          listener.notify(notification(runbook, alert, AlertNotification.Status.UPDATED, now));
        }
        case CONTINUED -> {
          AlertTransitionLog.continuedAfterRestart(key);
          listener.continued(notification(runbook, alert, AlertNotification.Status.FIRING, now));
        }
        case RESOLVED -> {
          if (transition.why().isEmpty()) {
            AlertTransitionLog.resolved(key);
          } else {
            AlertTransitionLog.resolved(key, transition.why());
          }
          listener.notify(notification(runbook, alert, AlertNotification.Status.RESOLVED, now));
        }
      }
      stateChanged = true;
    }
  }

  private String runbookOf(String ruleId) {
    return rules.stream()
        .filter(rule -> rule.id().equals(ruleId))
        .findFirst()
        .map(AlertRule::runbook)
        .orElse("alerts/runbooks/" + ruleId + ".md");
  }

  private AlertNotification notification(
      String runbook, ActiveAlert alert, AlertNotification.Status status, Instant now) {
    return notification(
        runbook, alert, status, now, targetTags.getOrDefault(alert.target(), Map.of()));
  }

  private static AlertNotification notification(
      String runbook,
      ActiveAlert alert,
      AlertNotification.Status status,
      Instant now,
      Map<String, String> tags) {
    Finding finding = alert.finding();
    return new AlertNotification(
            alert.ruleId(),
            alert.target(),
            alert.key(),
            alert.severity(),
            status,
            alert.since(),
            now,
            // As it last fired, for every status: each sink says "resolved" its own way.
            finding.summary(),
            finding.explanation(),
            finding.action(),
            runbook,
            finding.evidence(),
            Optional.ofNullable(alert.snapshot()))
        .withSnapshotUnavailable(alert.snapshotUnavailable())
        .withTargetTags(tags);
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
