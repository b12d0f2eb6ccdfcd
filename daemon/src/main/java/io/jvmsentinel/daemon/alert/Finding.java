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
 * @param cause what the rule names as the cause, stable while the evidence is (the creator site, a
 *     known cause's id; never a rate), or "" while it cannot say: a firing alert whose cause
 *     changes is updated in every sink, so a first guess does not stay the page's text
 */
public record Finding(
    String key,
    String summary,
    String explanation,
    String action,
    Map<String, Object> evidence,
    String cause) {
  public Finding {
    // Insertion order is the order people read the evidence in; unknown values stay as nulls.
    evidence = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(evidence));
    cause = cause == null ? "" : cause;
  }

  /** A finding that names no cause (yet). */
  public Finding(
      String key, String summary, String explanation, String action, Map<String, Object> evidence) {
    this(key, summary, explanation, action, evidence, "");
  }
}
