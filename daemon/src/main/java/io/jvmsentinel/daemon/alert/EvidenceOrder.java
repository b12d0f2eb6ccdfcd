package io.jvmsentinel.daemon.alert;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Puts the evidence that names the cause first. People read evidence in its order, and short forms
 * show only its first lines (Slack shows five), so a creator stack or the most recompiled methods
 * must not come after the rates that merely confirm the rule.
 */
public final class EvidenceOrder {
  private EvidenceOrder() {}

  /** {@code evidence} with those of {@code keys} it has first, in that order, then the rest. */
  public static Map<String, Object> causeFirst(Map<String, Object> evidence, String... keys) {
    Map<String, Object> ordered = new LinkedHashMap<>();
    for (String key : keys) {
      if (evidence.containsKey(key)) {
        ordered.put(key, evidence.get(key));
      }
    }
    ordered.putAll(evidence);
    return ordered;
  }
}
