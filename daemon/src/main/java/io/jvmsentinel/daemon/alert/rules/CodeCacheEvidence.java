package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
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
    SignalSample.Target target = target(context);
    if (target.javaVersion() != null) {
      evidence.put("vmOptions", target.vmOptions());
      evidence.put("javaVersion", target.javaVersion());
    }
    evidence.put("occupancyHistory", occupancyHistory(context, Duration.ofMinutes(2)));
    return evidence;
  }

  static String reserved(RuleContext context) {
    String value = target(context).vmOptions().get("ReservedCodeCacheSize");
    if (value == null) {
      return "unknown";
    }
    try {
      return Long.parseLong(value) / MB + " MB";
    } catch (NumberFormatException e) {
      return value;
    }
  }

  private static SignalSample.Target target(RuleContext context) {
    return context
        .history()
        .latest()
        .map(sample -> sample.details().target())
        .orElse(SignalSample.Target.UNKNOWN);
  }

  /** The methods compiled again most often in {@code samples}, with their tiers. */
  static List<Map<String, Object>> mostRecompiled(List<SignalSample> samples) {
    return WindowedEvidence.describe(
        WindowedEvidence.methods(samples, SignalSample.Details::recompiledMethods, 5), "tiers");
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
