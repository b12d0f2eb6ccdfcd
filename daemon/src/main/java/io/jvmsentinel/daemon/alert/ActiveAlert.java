package io.jvmsentinel.daemon.alert;

import java.time.Instant;

/**
 * An alert the engine currently tracks: pending (condition holds, not yet long enough) or firing.
 *
 * @param since when the condition first held (pending) or the alert fired (firing)
 * @param lastSeen the last evaluation at which the condition held
 * @param snapshot the alert's JFR evidence snapshot, once written and checked whole; else null
 * @param snapshotUnavailable why the alert names no snapshot (still being written, or why there is
 *     none); null when it names one, or says nothing of it (pending, restored)
 */
public record ActiveAlert(
    String ruleId,
    String target,
    String key,
    Severity severity,
    State state,
    Instant since,
    Instant lastSeen,
    Finding finding,
    String snapshot,
    String snapshotUnavailable) {

  public AlertKey alertKey() {
    return new AlertKey(ruleId, target, key);
  }

  /** Where an alert is in its life. */
  public enum State {
    PENDING,
    FIRING
  }
}
