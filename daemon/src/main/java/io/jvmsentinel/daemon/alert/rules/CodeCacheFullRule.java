package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.collectors.jfr.codecache.CodeCacheFullHandler;
import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The code cache filled: a full event arrived, or the JIT reports compilation disabled ("CodeCache
 * is full. Compiler has been disabled"). Critical: from then on new hot code runs interpreted.
 */
public final class CodeCacheFullRule implements AlertRule {
  static final String WINDOW = "windowSeconds";

  @Override
  public String id() {
    return "CodeCacheFull";
  }

  @Override
  public Severity severity() {
    return Severity.CRITICAL;
  }

  @Override
  public String description() {
    return "The code cache is full, or the JIT compiler has been disabled because of it.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(
            WINDOW, 60, "seconds", "A full event within this window keeps the alert firing"));
  }

  @Override
  public Duration clearFor() {
    // The window is the hysteresis: a full cache goes through cycles (full, flush, restart, full
    // again) while the same load runs, so the alert holds for the window after the last fill, and
    // clears at once after that rather than a clearFor later.
    return Duration.ZERO;
  }

  /** Whether the JIT compiles and the fills counted so far: any cadence. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    return List.of(RuleInput.anyCadence(Signal.CODE_CACHE_STATE));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    SignalSample latest = context.history().latest().orElseThrow();
    Duration window = Rates.seconds(context.threshold(WINDOW));
    double fills = context.history().increase(window, SignalSample::codeCacheFullEvents);
    boolean disabled = latest.compilationEnabled() == 0;
    boolean recentFill = fills > 0;
    if (!disabled && !recentFill) {
      return List.of();
    }
    Map<String, Object> evidence = CodeCacheEvidence.base(context);
    evidence.put("compilationEnabled", disabled ? "no" : "yes");
    List<CodeCacheFullHandler.CodeCacheFull> events = latest.details().codeCacheFulls();
    String segment = "";
    if (!events.isEmpty()) {
      CodeCacheFullHandler.CodeCacheFull last = events.get(events.size() - 1);
      segment = last.segment();
      evidence.put("lastFullEvent", last);
    }
    evidence.put(
        "segments",
        latest.codeHeaps().stream().map(h -> h.id() + " " + Rates.percent(h.occupancy())).toList());
    String where = segment.isEmpty() ? "" : " (" + segment + ")";
    return List.of(
        new Finding(
            "",
            "Code cache full on "
                + context.target()
                + where
                + (disabled ? ": JIT compilation disabled" : ""),
            "The code cache"
                + where
                + " filled up"
                + (disabled
                    ? " and the JIT has stopped compiling: new hot code now runs interpreted."
                    : "; the JVM is flushing compiled code to make room, and recompiling.")
                + " ReservedCodeCacheSize is "
                + CodeCacheEvidence.reserved(context)
                + ".",
            "Raise -XX:ReservedCodeCacheSize (e.g. double it; 240 MB is the default with tiered"
                + " compilation) and restart the service; check the JIT compile and"
                + " deoptimisation rates for churn.",
            EvidenceOrder.causeFirst(evidence, "segments", "lastFullEvent", "compilationEnabled")));
  }
}
