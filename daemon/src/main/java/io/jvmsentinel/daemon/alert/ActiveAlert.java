package io.jvmsentinel.daemon.alert;

import java.time.Instant;

/**
 * An alert the engine currently tracks: pending (condition holds, not yet long enough) or firing.
 *
 * @param since when the condition first held (pending) or the alert fired (firing)
 * @param lastSeen the last evaluation at which the condition held
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
    String snapshot) {

  public AlertKey alertKey() {
    return new AlertKey(ruleId, target, key);
  }

  /** Where an alert is in its life. */
  public enum State {
    PENDING,
    FIRING
  }
}
