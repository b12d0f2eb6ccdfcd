package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JIT compiler threads use a large share of the process CPU after warm-up (seed incident 4: 39%
 * of all samples in {@code CompileBroker::compiler_thread_loop}), which no Java profiler shows:
 * HotSpot hides compiler threads from ThreadMXBean; JFR's ThreadCPULoad sees them.
 */
public final class CompilerCpuHighRule implements AlertRule {
  static final String SHARE = "share";
  static final String WINDOW = "windowSeconds";

  @Override
  public String id() {
    return "CompilerCpuHigh";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "The JIT compiler threads burn a large share of the process CPU after warm-up.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(SHARE, 0.3, "fraction", "Compiler threads' share of the process CPU"),
        new RuleThreshold(WINDOW, 120, "seconds", "Window the share is averaged over"));
  }

  @Override
  public Duration clearFor() {
    return Duration.ofMinutes(1);
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context) || context.warmingUp()) {
      return List.of();
    }
    double share =
        Rates.mean(
            context, Rates.seconds(context.threshold(WINDOW)), SignalSample::compilerCpuShare);
    double limit = context.threshold(SHARE) * (context.firing("") ? 0.7 : 1);
    if (Double.isNaN(share) || share < limit) {
      return List.of();
    }
    var cpu = context.watched().jfr().compilerCpu();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("compilerShareOfProcessCpu", Math.round(share * 1000) / 1000.0);
    evidence.put("c1OfAllCpus", cpu.usage("c1"));
    evidence.put("c2OfAllCpus", cpu.usage("c2"));
    evidence.putAll(CodeCacheEvidence.base(context));
    return List.of(
        new Finding(
            "",
            "JIT compiler threads use "
                + Rates.percent(share)
                + " of the CPU of "
                + context.target(),
            "After warm-up the C1/C2 compiler threads still take "
                + Rates.percent(share)
                + " of the process CPU. Usually the code cache is too small and code keeps being"
                + " flushed and recompiled, or code keeps deoptimising.",
            "Check code cache occupancy and the CodeCacheChurn and DeoptimizationStorm alerts;"
                + " raise -XX:ReservedCodeCacheSize if the cache is near full.",
            evidence));
  }
}
