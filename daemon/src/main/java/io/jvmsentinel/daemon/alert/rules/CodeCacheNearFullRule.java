package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A code heap segment is nearly full: the JIT will soon stop compiling or start churning. */
public final class CodeCacheNearFullRule implements AlertRule {
  static final String OCCUPANCY = "occupancy";
  static final String RESOLVE = "resolveOccupancy";

  @Override
  public String id() {
    return "CodeCacheNearFull";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "A code cache segment is nearly full.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(OCCUPANCY, 0.9, "fraction", "Used share of the segment's maximum"),
        new RuleThreshold(RESOLVE, 0.85, "fraction", "A firing alert resolves below this share"));
  }

  /** The latest occupancy: any cadence (a slower one only reports later). */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    return List.of(RuleInput.anyCadence(Signal.CODE_HEAPS));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (SignalSample.CodeHeap heap : context.history().latest().orElseThrow().codeHeaps()) {
      double limit =
          context.firing(heap.id()) ? context.threshold(RESOLVE) : context.threshold(OCCUPANCY);
      if (heap.occupancy() >= limit) {
        Map<String, Object> evidence = CodeCacheEvidence.base(context);
        evidence.put("segment", heap.id());
        evidence.put("usedBytes", (long) heap.used());
        evidence.put("maxBytes", (long) heap.max());
        evidence.put("occupancy", Math.round(heap.occupancy() * 1000) / 1000.0);
        findings.add(
            new Finding(
                heap.id(),
                "Code cache "
                    + heap.id()
                    + " on "
                    + context.target()
                    + " is "
                    + Rates.percent(heap.occupancy())
                    + " full",
                "The segment "
                    + heap.id()
                    + " uses "
                    + Rates.percent(heap.occupancy())
                    + " of its maximum (ReservedCodeCacheSize "
                    + CodeCacheEvidence.reserved(context)
                    + "). When it fills, the JIT stops compiling or keeps flushing and"
                    + " recompiling (churn), and latency and CPU suffer.",
                "Raise -XX:ReservedCodeCacheSize (tiered compilation needs about 4x the"
                    + " non-tiered size; 240 MB is the default on JDK 8+) and watch the JIT"
                    + " compile and deoptimisation rates.",
                EvidenceOrder.causeFirst(
                    evidence, "segment", "occupancy", "usedBytes", "maxBytes")));
      }
    }
    return findings;
  }
}
