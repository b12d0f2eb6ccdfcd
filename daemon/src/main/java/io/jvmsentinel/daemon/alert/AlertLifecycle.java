package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The life of every alert, from findings and the time: pending, firing, updated, resolved. No
 * clock, no I/O, no logging: the same findings at the same instants give the same transitions,
 * which the engine then delivers. That is what lets recorded timelines, restarts and updates be
 * replayed in tests exactly.
 *
 * <p>A finding opens a pending alert; it fires once its condition has held for the rule's {@code
 * pendingFor}, and resolves once the condition has stayed clear for {@code clearFor} (rules apply
 * lower thresholds to keys already firing: hysteresis). A firing alert is <b>updated</b> when its
 * finding names another cause ({@link Finding#cause}) and keeps naming it for {@link
 * #CAUSE_SETTLES}: a first guess made before the evidence was in does not stay the page's text, and
 * two causes alternating tick by tick do not update it every tick. Once a cause is known, a
 * different one updates it at most every {@link #UPDATE_AT_MOST_EVERY}; a cause that becomes
 * unknown again (the stream paused) changes nothing.
 *
 * <p>Alerts taken back from the state file after a daemon restart are firing, of unknown condition:
 * if their condition holds again they continue (same dedup key, no second page; an update if the
 * cause changed meanwhile); if it stays clear through the restore grace and then {@code clearFor},
 * they resolve. A restored alert not yet seen again whose rule then names another cause is a new
 * incident: the old alert resolves and the new one starts its own life. Not thread-safe: the engine
 * confines it to its thread.
 */
public final class AlertLifecycle {
  /** How long a new cause must stay named before a firing alert is updated with it. */
  public static final Duration CAUSE_SETTLES = Duration.ofSeconds(3);

  /** The least time between two updates that replace a cause already named. */
  public static final Duration UPDATE_AT_MOST_EVERY = Duration.ofMinutes(1);

  /** What the life cycle needs of a rule: its identity and its timing. */
  public record RuleTiming(
      String ruleId, Severity severity, Duration pendingFor, Duration clearFor) {
    public static RuleTiming of(AlertRule rule) {
      return new RuleTiming(rule.id(), rule.severity(), rule.pendingFor(), rule.clearFor());
    }
  }

  /** What happened to an alert, for the sinks. */
  public enum Change {
    FIRED,
    UPDATED,
    /** A restored alert seen holding again: no page, but forgetful sinks must hear of it. */
    CONTINUED,
    RESOLVED
  }

  /**
   * One change of one alert.
   *
   * @param alert the alert as of this change (for RESOLVED: as it last fired)
   * @param why for a resolve not decided by its rule (target removed, rule gone), the reason; else
   *     ""
   */
  public record Transition(Change change, ActiveAlert alert, String why) {
    public Transition {
      Objects.requireNonNull(change, "change");
      Objects.requireNonNull(alert, "alert");
      why = why == null ? "" : why;
    }
  }

  /** Everything known of one alert; replaced, never changed. */
  private record Tracked(
      ActiveAlert alert,
      Instant clearSince,
      boolean restored,
      Instant restoredUntil,
      String notifiedCause,
      String candidateCause,
      Instant candidateSince,
      Instant lastUpdate) {

    static Tracked pending(ActiveAlert alert) {
      return new Tracked(
          alert, null, false, null, "", alert.finding().cause(), alert.since(), null);
    }

    Tracked withAlert(ActiveAlert next) {
      return new Tracked(
          next,
          clearSince,
          restored,
          restoredUntil,
          notifiedCause,
          candidateCause,
          candidateSince,
          lastUpdate);
    }

    Tracked clearingSince(Instant since) {
      return new Tracked(
          alert,
          since,
          restored,
          restoredUntil,
          notifiedCause,
          candidateCause,
          candidateSince,
          lastUpdate);
    }

    Tracked seen() {
      return new Tracked(
          alert, null, false, null, notifiedCause, candidateCause, candidateSince, lastUpdate);
    }

    Tracked candidate(String cause, Instant since) {
      return new Tracked(
          alert, clearSince, restored, restoredUntil, notifiedCause, cause, since, lastUpdate);
    }

    Tracked notified(String cause, Instant at) {
      return new Tracked(
          alert, clearSince, restored, restoredUntil, cause, candidateCause, candidateSince, at);
    }
  }

  private final Map<AlertKey, Tracked> alerts = new LinkedHashMap<>();
  private Instant restoreGraceEnds = Instant.MIN;

  /**
   * Until when restored alerts may not resolve for lack of a finding (their rules need history).
   */
  public void restoreGraceEndsAt(Instant instant) {
    restoreGraceEnds = instant;
  }

  /**
   * Takes back an alert a previous daemon left firing.
   *
   * @param heldUntil until when it may not resolve; null: the restore grace
   */
  public void restore(FiringAlertRecord record, Instant heldUntil) {
    ActiveAlert alert = restoredAlert(record);
    alerts.put(
        record.alertKey(),
        new Tracked(
            alert,
            null,
            true,
            heldUntil,
            record.cause(),
            record.cause(),
            record.startedAt(),
            null));
  }

  /** A firing alert as the state file kept it, with {@link #restoredFinding}. */
  public static ActiveAlert restoredAlert(FiringAlertRecord record) {
    return new ActiveAlert(
        record.ruleId(),
        record.target(),
        record.key(),
        record.severity(),
        ActiveAlert.State.FIRING,
        record.startedAt(),
        record.startedAt(),
        restoredFinding(record),
        record.snapshot(),
        null);
  }

  /** The finding of a restored alert until its rule speaks again. */
  static Finding restoredFinding(FiringAlertRecord record) {
    return new Finding(
        record.key(),
        record.summary(),
        "Restored from the alert state file after a daemon restart; the condition was not"
            + " observed again.",
        "",
        Map.of("restored", true),
        record.cause());
  }

  /** The keys of a rule on a target that are firing: what the rule's hysteresis needs. */
  public Set<String> firingKeys(String ruleId, String target) {
    return alerts.values().stream()
        .map(Tracked::alert)
        .filter(a -> a.ruleId().equals(ruleId) && a.target().equals(target))
        .filter(a -> a.state() == ActiveAlert.State.FIRING)
        .map(ActiveAlert::key)
        .collect(Collectors.toSet());
  }

  /**
   * One evaluation of a rule on a target: its findings now (the keys whose condition holds). Keys
   * of this rule and target without a finding are clear.
   */
  public List<Transition> evaluate(
      RuleTiming rule, String target, Collection<Finding> findings, Instant now) {
    List<Transition> transitions = new ArrayList<>();
    Map<String, Finding> byKey = new LinkedHashMap<>();
    findings.forEach(finding -> byKey.put(finding.key(), finding));
    for (Finding finding : byKey.values()) {
      holds(rule, new AlertKey(rule.ruleId(), target, finding.key()), finding, now, transitions);
    }
    for (Map.Entry<AlertKey, Tracked> entry : List.copyOf(alerts.entrySet())) {
      AlertKey key = entry.getKey();
      if (key.ruleId().equals(rule.ruleId())
          && key.target().equals(target)
          && !byKey.containsKey(key.key())) {
        clear(rule, key, entry.getValue(), now, transitions);
      }
    }
    return transitions;
  }

  private void holds(
      RuleTiming rule, AlertKey key, Finding finding, Instant now, List<Transition> out) {
    Tracked tracked = alerts.get(key);
    if (tracked != null && tracked.restored() && anotherIncident(tracked, finding)) {
      // Taken back after a restart and never seen since: a finding with another cause is a new
      // incident, not the old one going on. The old one ends; the new one lives its own life.
      alerts.remove(key);
      out.add(
          new Transition(
              Change.RESOLVED,
              tracked.alert(),
              "not seen again after the daemon restart; another cause followed"));
      tracked = null;
    }
    if (tracked == null) {
      tracked =
          Tracked.pending(
              new ActiveAlert(
                  rule.ruleId(),
                  key.target(),
                  key.key(),
                  rule.severity(),
                  ActiveAlert.State.PENDING,
                  now,
                  now,
                  finding,
                  null,
                  null));
    }
    boolean continuedAfterRestart = tracked.restored();
    tracked = tracked.seen();
    if (!finding.cause().equals(tracked.candidateCause())) {
      tracked = tracked.candidate(finding.cause(), now);
    }
    ActiveAlert alert = tracked.alert();
    if (alert.state() == ActiveAlert.State.PENDING
        && !now.isBefore(alert.since().plus(rule.pendingFor()))) {
      ActiveAlert fired =
          new ActiveAlert(
              rule.ruleId(),
              key.target(),
              key.key(),
              rule.severity(),
              ActiveAlert.State.FIRING,
              now,
              now,
              finding,
              null,
              null);
      alerts.put(key, tracked.withAlert(fired).notified(finding.cause(), now));
      out.add(new Transition(Change.FIRED, fired, ""));
      return;
    }
    ActiveAlert seen =
        new ActiveAlert(
            alert.ruleId(),
            alert.target(),
            alert.key(),
            alert.severity(),
            alert.state(),
            alert.since(),
            now,
            finding,
            alert.snapshot(),
            alert.snapshotUnavailable());
    tracked = tracked.withAlert(seen);
    if (seen.state() == ActiveAlert.State.FIRING && causeChanged(tracked, now)) {
      alerts.put(key, tracked.notified(tracked.candidateCause(), now));
      out.add(new Transition(Change.UPDATED, seen, ""));
    } else {
      alerts.put(key, tracked);
      if (continuedAfterRestart) {
        out.add(new Transition(Change.CONTINUED, seen, ""));
      }
    }
  }

  private static boolean anotherIncident(Tracked restored, Finding finding) {
    String before = restored.notifiedCause();
    return !before.isEmpty() && !finding.cause().isEmpty() && !finding.cause().equals(before);
  }

  /** Whether a settled cause differs from the one the sinks were told, and may replace it now. */
  private static boolean causeChanged(Tracked tracked, Instant now) {
    String candidate = tracked.candidateCause();
    if (candidate.isEmpty() || candidate.equals(tracked.notifiedCause())) {
      return false;
    }
    if (now.isBefore(tracked.candidateSince().plus(CAUSE_SETTLES))) {
      return false;
    }
    return tracked.notifiedCause().isEmpty()
        || tracked.lastUpdate() == null
        || !now.isBefore(tracked.lastUpdate().plus(UPDATE_AT_MOST_EVERY));
  }

  private void clear(
      RuleTiming rule, AlertKey key, Tracked tracked, Instant now, List<Transition> out) {
    if (tracked.alert().state() == ActiveAlert.State.PENDING) {
      alerts.remove(key);
      return;
    }
    Instant graceEnds =
        tracked.restoredUntil() != null ? tracked.restoredUntil() : restoreGraceEnds;
    if (tracked.restored() && now.isBefore(graceEnds)) {
      return; // Too early to tell: the rule may not have enough history yet.
    }
    if (tracked.clearSince() == null) {
      tracked = tracked.clearingSince(now);
      alerts.put(key, tracked);
    }
    if (!now.isBefore(tracked.clearSince().plus(rule.clearFor()))) {
      alerts.remove(key);
      out.add(new Transition(Change.RESOLVED, tracked.alert(), ""));
    }
  }

  /**
   * Ends every alert of a target without its rule (the target was removed): firing ones resolve,
   * saying why; pending ones are dropped.
   */
  public List<Transition> endTarget(String target, String why) {
    List<Transition> transitions = new ArrayList<>();
    for (Map.Entry<AlertKey, Tracked> entry : List.copyOf(alerts.entrySet())) {
      if (entry.getKey().target().equals(target)) {
        alerts.remove(entry.getKey());
        if (entry.getValue().alert().state() == ActiveAlert.State.FIRING) {
          transitions.add(new Transition(Change.RESOLVED, entry.getValue().alert(), why));
        }
      }
    }
    return transitions;
  }

  /**
   * Records what a firing alert says of its evidence snapshot: the file once checked whole, or why
   * there is none (yet); the alert as it is now.
   */
  public ActiveAlert attachSnapshot(AlertKey key, String snapshot, String unavailable) {
    Tracked tracked = alerts.get(key);
    if (tracked == null) {
      throw new IllegalArgumentException("no alert " + key);
    }
    ActiveAlert a = tracked.alert();
    ActiveAlert with =
        new ActiveAlert(
            a.ruleId(),
            a.target(),
            a.key(),
            a.severity(),
            a.state(),
            a.since(),
            a.lastSeen(),
            a.finding(),
            snapshot,
            unavailable);
    alerts.put(key, tracked.withAlert(with));
    return with;
  }

  /**
   * The alert a snapshot taken when it fired at {@code firedAt} belongs to, if that alert still
   * fires (not resolved, nor fired again since).
   */
  public Optional<ActiveAlert> firingSince(AlertKey key, Instant firedAt) {
    Tracked tracked = alerts.get(key);
    return tracked != null
            && tracked.alert().state() == ActiveAlert.State.FIRING
            && tracked.alert().since().equals(firedAt)
        ? Optional.of(tracked.alert())
        : Optional.empty();
  }

  /** How many alerts of a rule fire on a target. */
  public int firingCount(String ruleId, String target) {
    return firingKeys(ruleId, target).size();
  }

  /** Pending and firing alerts: firing first, then by rule, target and key. */
  public List<ActiveAlert> alerts() {
    return alerts.values().stream()
        .map(Tracked::alert)
        .sorted(
            Comparator.comparing((ActiveAlert a) -> a.state() == ActiveAlert.State.FIRING ? 0 : 1)
                .thenComparing(ActiveAlert::ruleId)
                .thenComparing(ActiveAlert::target)
                .thenComparing(ActiveAlert::key))
        .toList();
  }

  /**
   * The firing alerts as the state file keeps them.
   *
   * @param tagsOf the tags of a target, by name
   */
  public List<FiringAlertRecord> firingRecords(Map<String, Map<String, String>> tagsOf) {
    List<FiringAlertRecord> records = new ArrayList<>();
    for (Tracked tracked : alerts.values()) {
      ActiveAlert alert = tracked.alert();
      if (alert.state() == ActiveAlert.State.FIRING) {
        records.add(
            new FiringAlertRecord(
                alert.ruleId(),
                alert.target(),
                alert.key(),
                alert.severity(),
                alert.since(),
                alert.finding().summary(),
                alert.snapshot(),
                tagsOf.getOrDefault(alert.target(), Map.of()),
                tracked.notifiedCause()));
      }
    }
    return records;
  }
}
