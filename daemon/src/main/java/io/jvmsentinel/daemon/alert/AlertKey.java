package io.jvmsentinel.daemon.alert;

import java.util.Objects;

/**
 * Who an alert is: one rule, on one target, about one key within it (a code heap segment, a TLS
 * peer, or ""). At most one alert per key is alive at a time; every sink's identity of it (the
 * dedup key, the state file's id) is built here, so a restarted daemon continues the same alert.
 */
public record AlertKey(String ruleId, String target, String key) {
  public AlertKey {
    Objects.requireNonNull(ruleId, "ruleId");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(key, "key");
  }

  /** Stable across daemon restarts: PagerDuty's dedup key, the webhook's and the log's id. */
  public String dedupKey() {
    return "jvm-sentinel/" + ruleId + "/" + target + (key.isEmpty() ? "" : "/" + key);
  }

  /** For log lines: " [key]", or nothing. */
  public String keySuffix() {
    return key.isEmpty() ? "" : " [" + key + "]";
  }

  @Override
  public String toString() {
    return ruleId + " on " + target + keySuffix();
  }
}
