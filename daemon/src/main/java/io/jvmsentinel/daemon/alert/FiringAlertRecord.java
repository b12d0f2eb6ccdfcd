package io.jvmsentinel.daemon.alert;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A firing alert as the state file keeps it: enough to continue it under the same dedup key after a
 * daemon restart, or to send its resolve.
 *
 * @param ruleId the rule's stable id
 * @param target the target's configured name
 * @param key what within the target the alert is about, or ""
 * @param severity the rule's severity when it fired
 * @param startedAt when it started firing (kept, so the resolve names the original start)
 * @param summary the last summary, for a resolve sent without a fresh finding
 * @param snapshot the JFR evidence snapshot path, or null
 * @param targetTags the target's tags, so a resolve sent for a target gone after a restart still
 *     carries them; empty in files written before they were kept
 * @param cause the cause the sinks were last told ({@link Finding#cause}), so a restarted daemon
 *     sends an update only when the evidence changed; "" in files written before it was kept
 */
public record FiringAlertRecord(
    String ruleId,
    String target,
    String key,
    Severity severity,
    Instant startedAt,
    String summary,
    String snapshot,
    Map<String, String> targetTags,
    String cause) {
  public FiringAlertRecord {
    Objects.requireNonNull(ruleId, "ruleId");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(startedAt, "startedAt");
    summary = summary == null ? "" : summary;
    cause = cause == null ? "" : cause;
    targetTags =
        targetTags == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(targetTags));
  }

  /** The alert this record continues. */
  public AlertKey alertKey() {
    return new AlertKey(ruleId, target, key);
  }
}
