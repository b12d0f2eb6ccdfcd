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
 * roomy cache code in steady use is not flushed again and again: the sweeper there mostly reclaims
 * code already made not entrant, by tier transitions, deoptimisation or unloaded classes. JDK 17's
 * sweeper reclaimed 700 to 1,100 methods every 20 s of the lab's class loader churn at 21% of 240
 * MB, and 1,100 every 20 to 30 s after a plugin of 300 classes was reloaded, before any old class
 * was unloaded: CodeCacheChurn paged that while only class reloading excused the flushing.
 *
 * <p>A cache can look roomy and still be too small: when the code in use does not fit, the JVM
 * keeps it under its maximum by flushing what was least recently used, and compiles it again when
 * it is used again. The sweeper of JDK 17 did that at 40% to 75% of a 40 MB cache, and JDK 25's
 * code cache GCs (which unload code left unused for a share of the time the cache would take to
 * fill) at 32% to 48%, for the lab's code base of 3,840 classes called in rotation: 180 methods a
 * second, each compiled again once a rotation, no class loaded. That is {@link
 * CacheState#DISCARDING_IN_USE}: methods compiled again after the cache discarded their code, in
 * nearly every sub-window, spread over the code base rather than the same few (a deoptimisation
 * storm recurs), with few deoptimisation events and no class reloading to explain them.
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
  // Code compiled again after the cache discarded it, per second, in nearly every sub-window: the
  // lab's code base churn 180; any other recording at most 0.6 outside a small or full cache.
  static final double MIN_DISCARDED_IN_USE = 5;
  // Nearly every sub-window: a deoptimisation wave after a change lasts 20 to 30 s (3 or 4).
  private static final int IN_USE_PARTS = SubWindows.PARTS - 1;
  // Deoptimisation events at this share of the discarded code explain it (DeoptimizationStorm's).
  private static final double DEOPTIMIZED = 0.1;

  /** What the cache's state over a window makes of the flushing in it. */
  enum CacheState {
    /** Large and under its near-full mark: its flushing is housekeeping, not pressure. */
    ROOMY,
    /** Near its maximum, full, or small: flushing is pressure. */
    PRESSED,
    /** Not full but throwing away code still in use, compiled again all through the window. */
    DISCARDING_IN_USE
  }

  private ChurnSignature() {}

  /** The cache's state over the window. */
  static CacheState cacheState(SignalWindow history, Duration window) {
    if (discardsCodeInUse(history, window)) {
      return CacheState.DISCARDING_IN_USE;
    }
    return cacheUnderPressure(history, window) || small(history.window(window))
        ? CacheState.PRESSED
        : CacheState.ROOMY;
  }

  /**
   * The JIT recompiling under pressure in this slice; {@code cache}: the cache's state over the
   * rule's window ({@link #cacheState}), which says whether the slice's flushing is pressure. A
   * cache discarding code in use has flushed what the slice compiles again, in the slice or before.
   */
  static boolean recompilingUnderPressure(
      List<SignalSample> slice, boolean warmingUp, CacheState cache) {
    return recompilingUnderPressure(slice, warmingUp, MIN_RECOMPILE_RATE, NEAR_MAX, cache);
  }

  static boolean recompilingUnderPressure(
      List<SignalSample> slice,
      boolean warmingUp,
      double minRecompiles,
      double nearMax,
      CacheState cache) {
    if (!(SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr)
        >= minRecompiles)) {
      return false;
    }
    boolean full = SubWindows.maxOccupancy(slice) >= nearMax;
    boolean flushed =
        cache == CacheState.DISCARDING_IN_USE
            || (flushing(slice) && (full || cache == CacheState.PRESSED));
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
   * The code cache itself discards compiled code: it is under pressure, small and flushing, or
   * discarding code in use. Then code compiled again is CodeCacheChurn's.
   */
  static boolean cacheDiscardsCode(SignalWindow history, Duration window) {
    return cacheUnderPressure(history, window)
        || (small(history.window(window)) && flushing(history.window(window)))
        || discardsCodeInUse(history, window);
  }

  /**
   * Methods compiled again after the cache discarded their code (of classes still loaded), at
   * {@link #MIN_DISCARDED_IN_USE} a second in nearly every sub-window, spread over many methods
   * (not recurring, as a storm's do), with deoptimisation events (where the JVM has them) too few
   * to explain them and no class reloading: the code in use does not fit the cache.
   */
  static boolean discardsCodeInUse(SignalWindow history, Duration window) {
    if (!Rates.known(history, SignalSample::discardedRecompilations)) {
      return false;
    }
    List<List<SignalSample>> slices = SubWindows.of(history, window, SubWindows.PARTS);
    int held =
        SubWindows.holding(
            slices,
            slice ->
                SubWindows.rate(slice, SignalSample::discardedRecompilations, SignalSample::jfr)
                    >= MIN_DISCARDED_IN_USE);
    if (held < IN_USE_PARTS) {
      return false;
    }
    double discarded =
        history.rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    double deoptimizations = history.rate(window, SignalSample::deoptimizations, SignalSample::jfr);
    return !(deoptimizations >= DEOPTIMIZED * discarded)
        && !classesReloaded(history, window)
        && DeoptimizationStormRule.recurringShare(slices, SignalSample.Details::discardedMethods)
            < DeoptimizationStormRule.RECURRING;
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
