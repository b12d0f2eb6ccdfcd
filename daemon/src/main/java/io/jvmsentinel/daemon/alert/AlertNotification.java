package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.text.SafeText;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the detection engine tells the notification sinks: an alert started firing, or resolved. One
 * alert exists per (rule, target, key) at a time; {@link #dedupKey()} is stable across daemon
 * restarts, so a restarted daemon re-raising a firing alert does not page twice.
 *
 * @param ruleId the rule's stable id, e.g. {@code ThreadStorm}
 * @param target the target's configured name
 * @param key what within the target the alert is about (a code heap segment, a TLS peer), or ""
 * @param status FIRING, UPDATED or RESOLVED
 * @param startedAt when the alert started firing
 * @param at when this notification was produced (for RESOLVED: when it resolved)
 * @param summary one line, e.g. "Thread storm on orders: 212 thread starts/s"
 * @param explanation what is going on, in a few sentences, naming the cause when known
 * @param action what to do about it
 * @param runbook link to the runbook ({@code alerts/runbooks/<id>.md})
 * @param evidence JSON-friendly details (numbers, strings, lists and maps of them)
 * @param snapshot path of the alert's JFR evidence snapshot, once written and checked whole
 * @param snapshotUnavailable why the notification names no snapshot: still being written (an update
 *     names it once checked), or why there is none
 * @param page the alert on the daemon's status page, when {@code http.externalUrl} is set
 * @param targetTags the target's tags with a value (discovery's namespace, pod, main class, the
 *     configured ones), the same as on its series; sinks add them to their labels or tags
 */
public record AlertNotification(
    String ruleId,
    String target,
    String key,
    Severity severity,
    Status status,
    Instant startedAt,
    Instant at,
    String summary,
    String explanation,
    String action,
    String runbook,
    Map<String, Object> evidence,
    Optional<String> snapshot,
    Optional<String> snapshotUnavailable,
    Optional<String> page,
    Map<String, String> targetTags) {

  /**
   * FIRING when the alert starts, UPDATED when a firing alert's evidence changed what it names as
   * the cause (same alert, same dedup key: sinks revise it, they do not page again), RESOLVED when
   * its condition has cleared.
   */
  public enum Status {
    FIRING,
    UPDATED,
    RESOLVED
  }

  /**
   * What the text sinks add to a resolve: its summary is the alert's as it last fired, so a reader
   * who sees "RESOLVED ... 44% of time in GC pauses" knows the 44% is not the current reading.
   */
  public static final String RESOLVED_FIGURES =
      "The figures are those the alert last fired with, not readings after it cleared.";

  public AlertNotification {
    Objects.requireNonNull(ruleId, "ruleId");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(at, "at");
    // Every sink shows these to people and most name the target's code: cleaned once, here, of
    // control, line-separator, bidirectional and zero-width characters (SafeText), so no sink can
    // forget it. Each sink still makes the rest of its own syntax inert (Slack's mrkdwn, HTML).
    target = SafeText.of(target);
    key = SafeText.of(key);
    summary = SafeText.of(summary);
    explanation = SafeText.of(explanation);
    action = SafeText.of(action);
    // Insertion order is the order people read the evidence in; unknown values stay as nulls.
    evidence = CleanEvidence.of(evidence);
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(snapshotUnavailable, "snapshotUnavailable");
    snapshotUnavailable = snapshotUnavailable.map(SafeText::of);
    Objects.requireNonNull(page, "page");
    targetTags = CleanEvidence.tags(targetTags);
  }

  /** A notification without a page link (no {@code http.externalUrl}) or target tags. */
  public AlertNotification(
      String ruleId,
      String target,
      String key,
      Severity severity,
      Status status,
      Instant startedAt,
      Instant at,
      String summary,
      String explanation,
      String action,
      String runbook,
      Map<String, Object> evidence,
      Optional<String> snapshot) {
    this(
        ruleId,
        target,
        key,
        severity,
        status,
        startedAt,
        at,
        summary,
        explanation,
        action,
        runbook,
        evidence,
        snapshot,
        Optional.empty(),
        Optional.empty(),
        Map.of());
  }

  /** This notification with another runbook link. */
  public AlertNotification withRunbook(String link) {
    return with(link, snapshotUnavailable, page, targetTags);
  }

  /** This notification with a link to the alert's page. */
  public AlertNotification withPage(String url) {
    return with(runbook, snapshotUnavailable, Optional.of(url), targetTags);
  }

  /** This notification with its target's tags. */
  public AlertNotification withTargetTags(Map<String, String> tags) {
    return with(runbook, snapshotUnavailable, page, tags);
  }

  /** This notification saying why it names no snapshot (null: it says nothing of it). */
  public AlertNotification withSnapshotUnavailable(String why) {
    return with(runbook, Optional.ofNullable(why), page, targetTags);
  }

  private AlertNotification with(
      String runbook,
      Optional<String> snapshotUnavailable,
      Optional<String> page,
      Map<String, String> targetTags) {
    return new AlertNotification(
        ruleId,
        target,
        key,
        severity,
        status,
        startedAt,
        at,
        summary,
        explanation,
        action,
        runbook,
        evidence,
        snapshot,
        snapshotUnavailable,
        page,
        targetTags);
  }

  /** Which alert this is within the daemon. */
  public AlertKey alertKey() {
    return new AlertKey(ruleId, target, key);
  }

  /**
   * Stable identity of the alert across daemons: the same rule, target, key and pod give the same
   * key, always ({@link AlertKey#dedupKey(Map)}).
   */
  public String dedupKey() {
    return alertKey().dedupKey(targetTags);
  }
}
