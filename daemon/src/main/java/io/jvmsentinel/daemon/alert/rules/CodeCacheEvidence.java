package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Code cache facts the code cache rules all attach: VM options and segment occupancy history. */
final class CodeCacheEvidence {
  private static final long MB = 1024 * 1024;

  private CodeCacheEvidence() {}

  static Map<String, Object> base(RuleContext context) {
    Map<String, Object> evidence = new LinkedHashMap<>();
    JvmIdentity identity = context.watched().session().pollers().identity().identity();
    if (identity != null) {
      evidence.put("vmOptions", identity.vmOptions());
      evidence.put("javaVersion", identity.javaVersion());
    }
    evidence.put("occupancyHistory", occupancyHistory(context, Duration.ofMinutes(2)));
    return evidence;
  }

  static String reserved(RuleContext context) {
    JvmIdentity identity = context.watched().session().pollers().identity().identity();
    String value = identity == null ? null : identity.vmOptions().get("ReservedCodeCacheSize");
    if (value == null) {
      return "unknown";
    }
    try {
      return Long.parseLong(value) / MB + " MB";
    } catch (NumberFormatException e) {
      return value;
    }
  }

  /** Per segment, occupancy (0..1) about every 10 s over the window: shows fill and churn. */
  static Map<String, List<Double>> occupancyHistory(RuleContext context, Duration window) {
    Map<String, List<Double>> history = new LinkedHashMap<>();
    List<SignalSample> samples = context.history().window(window);
    int step = Math.max(1, samples.size() / 12);
    for (int i = 0; i < samples.size(); i += step) {
      for (SignalSample.CodeHeap heap : samples.get(i).codeHeaps()) {
        history
            .computeIfAbsent(heap.id(), id -> new ArrayList<>())
            .add(Math.round(heap.occupancy() * 1000) / 1000.0);
      }
    }
    return history;
  }
}
