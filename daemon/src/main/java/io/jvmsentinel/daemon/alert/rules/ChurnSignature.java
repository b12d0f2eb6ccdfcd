package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
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
 *
 * <p>While classes are being reloaded (loaded anew, and unloaded), flushing is the unloading's: the
 * code of unloaded classes is flushed with them, at any occupancy (JDK 17's sweeper reclaimed 700
 * to 1,100 methods every 20 s of the lab's class loader churn at 21% occupancy). It then counts as
 * pressure only with the cache near its maximum; recompiling in a roomy cache is ClassLoaderChurn,
 * whose remedy is not a larger cache.
 */
final class ChurnSignature {
  static final Duration WINDOW = Duration.ofSeconds(60);
  // The defaults of CodeCacheChurn's thresholds; CompilerCpuHigh's churn form uses them as set.
  static final double MIN_RECOMPILE_RATE = 1;
  static final double NEAR_MAX = 0.8;
  // The default of ClassLoaderChurn's minClassLoadRate: classes loaded anew per second.
  static final double MIN_CLASS_LOAD_RATE = 1;
  // Unloading happens at the GCs that collect dropped loaders, minutes apart in a large metaspace.
  static final Duration UNLOADING = Duration.ofMinutes(10);
  private static final double MOSTLY_RECOMPILING = 0.5;
  private static final double FALL = 0.05;

  private ChurnSignature() {}

  static boolean recompilingUnderPressure(
      List<SignalSample> slice, boolean warmingUp, boolean reloading) {
    return recompilingUnderPressure(slice, warmingUp, MIN_RECOMPILE_RATE, NEAR_MAX, reloading);
  }

  static boolean recompilingUnderPressure(
      List<SignalSample> slice,
      boolean warmingUp,
      double minRecompiles,
      double nearMax,
      boolean reloading) {
    if (!(SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr)
        >= minRecompiles)) {
      return false;
    }
    boolean full = SubWindows.maxOccupancy(slice) >= nearMax;
    boolean flushed = flushing(slice) && (full || !reloading);
    if (warmingUp) {
      // Warm-up is mostly first-time compilation; recompiling more than new code is churn.
      return flushed && (full || mostlyRecompiling(slice));
    }
    return full || flushed;
  }

  /**
   * Classes are being reloaded: loaded at {@code minLoadRate} or more over the window, and some
   * unloaded lately (a dropped loader's classes go at the next GC that collects it). Unknown counts
   * (recordings made before they were sampled) say no.
   */
  static boolean reloadingClasses(SignalWindow history, Duration window, double minLoadRate) {
    return history.rate(window, SignalSample::classesLoaded) >= minLoadRate
        && history.increase(UNLOADING, SignalSample::classesUnloaded) > 0;
  }

  /**
   * The cache is too small: it came near its maximum somewhere in the window, or filled. Then
   * recompiling is CodeCacheChurn's to report even while classes are reloaded (the lab's incident 4
   * loads fresh class copies into a 4 MB cache that swings between 57% and 88%).
   */
  static boolean cacheUnderPressure(SignalWindow history, Duration window) {
    return SubWindows.maxOccupancy(history.window(window)) >= NEAR_MAX
        || history.increase(window, SignalSample::codeCacheFullEvents) > 0;
  }

  /**
   * Classes reloaded in a cache that stays roomy: its flushing is the unloading's, not pressure.
   */
  static boolean reloadingInRoomyCache(SignalWindow history, Duration window, double minLoadRate) {
    return reloadingClasses(history, window, minLoadRate) && !cacheUnderPressure(history, window);
  }

  /** At least half of what the JIT compiled in the slice it had compiled before. */
  static boolean mostlyRecompiling(List<SignalSample> slice) {
    double recompiles = SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr);
    double compiles = SubWindows.rate(slice, SignalSample::compilations, SignalSample::jfr);
    return compiles > 0 && recompiles / compiles >= MOSTLY_RECOMPILING;
  }

  /** Code is being flushed: the sweeper, code cache GCs, a fill, or occupancy falling. */
  static boolean flushing(List<SignalSample> samples) {
    return SubWindows.rate(samples, SignalSample::sweeperReclaimed, s -> true) > 0
        || SubWindows.rate(samples, SignalSample::codeCacheGcs, s -> true) > 0
        || SubWindows.rate(samples, SignalSample::codeCacheFullEvents, s -> true) > 0
        || SubWindows.occupancyFall(samples) >= FALL;
  }
}
