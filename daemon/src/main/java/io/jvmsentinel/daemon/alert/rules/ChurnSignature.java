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
 * <p>In a cache that stays roomy (under {@code NEAR_MAX} over the window, never full, and of
 * {@value #SMALL_MB} MB or more) flushing is not pressure. HotSpot's sweeper (JDK 8 to 19) flushes
 * code that no stack scan has seen for a number of sweeps, twice the hotness counter's start (twice
 * the cache's size in MB) less ten times the cache's size over its free space: 10 sweeps in a 4 MB
 * cache at any occupancy, about 240 in a 64 MB cache half full and 60 at 95%, 950 in 240 MB at 21%.
 * Code it flushed comes back with age counters, and stays while in use (UseCodeAging). So in a
 * roomy cache the same code is not flushed again and again: the sweeper there mostly reclaims code
 * already made not entrant, by tier transitions, deoptimisation or unloaded classes. JDK 17's
 * sweeper reclaimed 700 to 1,100 methods every 20 s of the lab's class loader churn at 21% of 240
 * MB, and 1,100 every 20 to 30 s after a plugin of 300 classes was reloaded, before any old class
 * was unloaded: CodeCacheChurn paged that while only class reloading excused the flushing.
 */
final class ChurnSignature {
  static final Duration WINDOW = Duration.ofSeconds(60);
  // The defaults of CodeCacheChurn's thresholds; CompilerCpuHigh's churn form uses them as set.
  static final double MIN_RECOMPILE_RATE = 1;
  static final double NEAR_MAX = 0.8;
  // The defaults of ClassLoaderChurn's minClassLoadRate (classes loaded anew per second) and
  // minRecompileRate (methods of reloaded classes compiled again per second).
  static final double MIN_CLASS_LOAD_RATE = 1;
  static final double MIN_RELOAD_RECOMPILE_RATE = 10;
  // Unloading happens at the GCs that collect dropped loaders, minutes apart in a large metaspace.
  static final Duration UNLOADING = Duration.ofMinutes(10);
  private static final double MOSTLY_RECOMPILING = 0.5;
  private static final double FALL = 0.05;
  // Below 32 MB the sweeper flushes code unseen for a few dozen sweeps at any occupancy; above,
  // only after hundreds unless the cache is near full (NEAR_MAX covers that).
  static final int SMALL_MB = 32;

  private ChurnSignature() {}

  /**
   * The JIT recompiling under pressure in this slice; {@code roomy}: the cache stayed roomy over
   * the rule's window ({@link #roomy}), so the slice's flushing is not pressure.
   */
  static boolean recompilingUnderPressure(
      List<SignalSample> slice, boolean warmingUp, boolean roomy) {
    return recompilingUnderPressure(slice, warmingUp, MIN_RECOMPILE_RATE, NEAR_MAX, roomy);
  }

  static boolean recompilingUnderPressure(
      List<SignalSample> slice,
      boolean warmingUp,
      double minRecompiles,
      double nearMax,
      boolean roomy) {
    if (!(SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr)
        >= minRecompiles)) {
      return false;
    }
    boolean full = SubWindows.maxOccupancy(slice) >= nearMax;
    boolean flushed = flushing(slice) && (full || !roomy);
    if (warmingUp) {
      // Warm-up is mostly first-time compilation; recompiling more than new code is churn.
      return flushed && (full || mostlyRecompiling(slice));
    }
    return full || flushed;
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
   * The cache stayed under {@link #NEAR_MAX} over the window, did not fill, and is not small: its
   * sweeper flushes no code in use.
   */
  static boolean roomy(SignalWindow history, Duration window) {
    return !cacheUnderPressure(history, window) && !small(history.window(window));
  }

  /**
   * The code cache itself discards compiled code: it is under pressure, or small and flushing. Then
   * code compiled again is CodeCacheChurn's.
   */
  static boolean cacheDiscardsCode(SignalWindow history, Duration window) {
    return cacheUnderPressure(history, window)
        || (small(history.window(window)) && flushing(history.window(window)));
  }

  /** Code heaps reserving under {@value #SMALL_MB} MB in all (the lab's 4 and 8 MB caches). */
  private static boolean small(List<SignalSample> samples) {
    for (int i = samples.size() - 1; i >= 0; i--) {
      List<SignalSample.CodeHeap> heaps = samples.get(i).codeHeaps();
      if (!heaps.isEmpty()) {
        double reserved = heaps.stream().mapToDouble(SignalSample.CodeHeap::max).sum();
        return reserved > 0 && reserved < SMALL_MB * 1024 * 1024;
      }
    }
    return false;
  }

  /**
   * Classes keep being loaded and the JIT compiles methods of reloaded classes again (the same
   * methods of a class loaded anew, not code of a loaded class discarded) at ClassLoaderChurn's
   * default rates.
   */
  static boolean classesReloaded(SignalWindow history, Duration window) {
    double recompiles = history.rate(window, SignalSample::recompilations, SignalSample::jfr);
    double discarded =
        history.rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    return history.rate(window, SignalSample::classesLoaded) >= MIN_CLASS_LOAD_RATE
        && recompiles - discarded >= MIN_RELOAD_RECOMPILE_RATE;
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
