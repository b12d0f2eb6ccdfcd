package io.jvmsentinel.daemon.alert;

import java.util.Map;

/**
 * A rule's verdict for one key of one target: the condition holds now. The engine decides when a
 * finding becomes a firing alert (and when its absence resolves it).
 *
 * @param key what within the target it is about (a code heap segment, a TLS peer), or ""
 * @param summary one line for a pager
 * @param explanation what is going on and, when known, why
 * @param action what to do
 * @param evidence JSON-friendly details: rates, sites, stacks, occupancy history
 */
public record Finding(
    String key, String summary, String explanation, String action, Map<String, Object> evidence) {
  public Finding {
    // Insertion order is the order people read the evidence in; unknown values stay as nulls.
    evidence = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(evidence));
  }
}
