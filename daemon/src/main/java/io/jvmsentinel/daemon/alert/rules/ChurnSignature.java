package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.List;

/**
 * The signature of codecache churn in a slice of samples, shared by the rules that act on it: the
 * JIT compiles again methods it had already compiled, while the code cache is under pressure (being
 * flushed, or near its maximum). Recompiling with a roomy cache that nothing flushes is
 * deoptimisation (DeoptimizationStorm), not churn. During warm-up, when recompiling is common, only
 * the unambiguous form counts: flushing, with the cache near its maximum or the JIT recompiling
 * more than it compiles new code.
 */
final class ChurnSignature {
  static final Duration WINDOW = Duration.ofSeconds(60);
  // The defaults of CodeCacheChurn's thresholds; CompilerCpuHigh's churn form uses them as set.
  static final double MIN_RECOMPILE_RATE = 1;
  static final double NEAR_MAX = 0.8;
  private static final double MOSTLY_RECOMPILING = 0.5;
  private static final double FALL = 0.05;

  private ChurnSignature() {}

  static boolean recompilingUnderPressure(List<SignalSample> slice, boolean warmingUp) {
    return recompilingUnderPressure(slice, warmingUp, MIN_RECOMPILE_RATE, NEAR_MAX);
  }

  static boolean recompilingUnderPressure(
      List<SignalSample> slice, boolean warmingUp, double minRecompiles, double nearMax) {
    if (!(SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr)
        >= minRecompiles)) {
      return false;
    }
    boolean full = SubWindows.maxOccupancy(slice) >= nearMax;
    if (warmingUp) {
      // Warm-up is mostly first-time compilation; recompiling more than new code is churn.
      double recompiles = SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr);
      double compiles = SubWindows.rate(slice, SignalSample::compilations, SignalSample::jfr);
      boolean mostlyRecompiling = compiles > 0 && recompiles / compiles >= MOSTLY_RECOMPILING;
      return flushing(slice) && (full || mostlyRecompiling);
    }
    return full || flushing(slice);
  }

  /** Code is being flushed: the sweeper, code cache GCs, a fill, or occupancy falling. */
  static boolean flushing(List<SignalSample> samples) {
    return SubWindows.rate(samples, SignalSample::sweeperReclaimed, s -> true) > 0
        || SubWindows.rate(samples, SignalSample::codeCacheGcs, s -> true) > 0
        || SubWindows.rate(samples, SignalSample::codeCacheFullEvents, s -> true) > 0
        || SubWindows.occupancyFall(samples) >= FALL;
  }
}
