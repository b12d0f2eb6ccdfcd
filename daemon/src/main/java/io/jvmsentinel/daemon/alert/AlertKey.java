package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

/**
 * Who an alert is: one rule, on one target, about one key within it (a code heap segment, a TLS
 * peer, or ""). At most one alert per key is alive at a time; every sink's identity of it (the
 * dedup key, the state file's id) is built here, so a restarted daemon continues the same alert.
 *
 * <p>Target names are unique within one daemon only: two replicas of an app, each with its own
 * sidecar, may both call their target {@code orders}. So the dedup key, which PagerDuty, the
 * webhook and Datadog see from every daemon at once, also carries the target's pod ({@link
 * PodIdentity#podPath()}): one replica's resolve never closes another's incident.
 */
public record AlertKey(String ruleId, String target, String key) {
  public AlertKey {
    Objects.requireNonNull(ruleId, "ruleId");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(key, "key");
  }

  /**
   * Stable across daemon restarts: PagerDuty's dedup key, the webhook's, Datadog's aggregation key
   * and the log's id. {@code jvm-sentinel/<rule>/<target>[@<namespace>/<pod>/<container>][/<key>]}
   * (target names have no {@code @}): without a pod, as before pod identity existed, so alerts a
   * restarted daemon continues keep their key. At most {@value #DEDUP_KEY_MAX} characters,
   * PagerDuty's limit ({@link #shortened}): a key may be a name the target chose (a TLS peer).
   */
  public String dedupKey(PodIdentity where) {
    String pod = where.podPath().map(path -> "@" + path).orElse("");
    return shortened(
        "jvm-sentinel/" + ruleId + "/" + target + pod + (key.isEmpty() ? "" : "/" + key),
        DEDUP_KEY_MAX);
  }

  /** PagerDuty refuses an event whose {@code dedup_key} is longer. */
  public static final int DEDUP_KEY_MAX = 255;

  /**
   * {@code id} itself when it has at most {@code max} characters, else its start and {@code ~} and
   * 16 hex digits of its SHA-256: as stable and as distinct as the whole, and short enough for a
   * sink's limit.
   */
  public static String shortened(String id, int max) {
    if (id.length() <= max) {
      return id;
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return id.substring(0, max - 17) + "~" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The dedup key of this alert on a target with these tags (its pod identity among them). */
  public String dedupKey(Map<String, String> targetTags) {
    return dedupKey(PodIdentity.fromTags(targetTags));
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
