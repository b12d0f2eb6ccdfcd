package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.SubWindows;
import io.jvmsentinel.daemon.alert.WarmUp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Class loader churn: the JIT compiles the same methods again and again because their classes are
 * defined again by new class loaders (a script engine, template or plugin host that builds a loader
 * per request or per reload) while the old loaders are dropped. To the JVM each reloaded class is
 * new code: interpreted, profiled and compiled anew, its old code unloaded with the old loader.
 *
 * <p>Told apart by mechanism from the other ways the same methods get compiled again: the code
 * cache is not near its maximum and has not filled (else the cache is too small: CodeCacheChurn,
 * whose remedy, a larger cache, would not help here), and the compiled code is not thrown away by
 * deoptimisation (DeoptimizationStorm). After warm-up's first minutes, in most sub-windows: at
 * least {@code minRecompileRate} recompilations a second, at least half of all compilations, and
 * classes loaded at {@code minClassLoadRate}: the classes keep being loaded anew. A new feature
 * compiles new code once and a warm-up mostly compiles code for the first time: neither is mostly
 * recompilation. A single reload (a plugin or configuration hot-reloaded once) loads its classes at
 * one moment, and the JIT then takes tens of seconds to compile the fresh copy again (300 classes:
 * 2,700 recompilations over 27 s on a loaded host, in 4 of the 6 sub-windows): recompilation that
 * outlasts the loading is the tail of one reload, not churn.
 */
public final class ClassLoaderChurnRule implements AlertRule {
  static final String WINDOW = "windowSeconds";
  static final String MIN_RECOMPILE_RATE = "minRecompileRate";
  static final String MIN_CLASS_LOAD_RATE = "minClassLoadRate";
  static final String SUSTAINED = "sustainedShare";
  // Deoptimisations at a quarter of the recompilations or more: deoptimisation discards the code.
  private static final double DEOPTIMIZED = 0.25;
  // Without deoptimisation events: recompilations of discarded code at a tenth of them or more.
  private static final double DISCARDED = 0.1;

  @Override
  public String id() {
    return "ClassLoaderChurn";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "The JIT keeps compiling the same methods again because their classes are reloaded by"
        + " new class loaders.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(
            WINDOW,
            60,
            "seconds",
            "Window judged in 6 sub-windows; a firing alert is judged on the latest one at half"
                + " the recompilation rate"),
        new RuleThreshold(
            MIN_RECOMPILE_RATE,
            ChurnSignature.MIN_RELOAD_RECOMPILE_RATE,
            "recompilations/s",
            "Compilations of methods already compiled at the same tier, in a sub-window; they must"
                + " also be at least half of all compilations there"),
        new RuleThreshold(
            MIN_CLASS_LOAD_RATE,
            ChurnSignature.MIN_CLASS_LOAD_RATE,
            "classes/s",
            "Classes loaded, over the window and in each sub-window the recompilation holds in:"
                + " the recompiled code belongs to classes that keep being loaded anew"),
        new RuleThreshold(
            SUSTAINED, 0.6, "fraction", "Share of the sub-windows the recompilation must hold in"));
  }

  @Override
  public boolean needsJfr() {
    return true;
  }

  /** Recompilations (JFR) per sub-window; class counts and occupancy within the window. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(
        Rates.everySubWindow(Signal.RECOMPILATIONS, window),
        Rates.everySubWindow(Signal.CLASS_LOADING, window),
        Rates.everyWindow(Signal.CODE_HEAPS, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    // Judged while warm-up settles (past its minimum, compiling less every minute): mostly
    // recompilation of reloaded classes is no JIT settling, which compiles code for the first time.
    if (!Rates.up(context) || context.warmUp() == WarmUp.Phase.STARTING) {
      return List.of();
    }
    SignalWindow history = context.history();
    Duration window = Rates.seconds(context.threshold(WINDOW));
    double minRecompiles = context.threshold(MIN_RECOMPILE_RATE);
    // Still recompiling in the latest sub-window, at half the rate: to fire and to stay firing.
    if (!(recompileRate(Latest.subWindow(history, window)) >= minRecompiles / 2)) {
      return List.of();
    }
    List<SignalSample> samples = history.window(window);
    double recompiles = history.rate(window, SignalSample::recompilations, SignalSample::jfr);
    double deopts = history.rate(window, SignalSample::deoptimizations, SignalSample::jfr);
    double loaded = history.rate(window, SignalSample::classesLoaded);
    double minLoaded = context.threshold(MIN_CLASS_LOAD_RATE);
    if (!(loaded >= minLoaded)) {
      return List.of();
    }
    boolean underPressure = ChurnSignature.cacheUnderPressure(history, window);
    if (context.firing("") && underPressure) {
      // An episode already paged holds while classes keep being loaded, even once the copies have
      // filled the cache: the reloading goes on, and resolving then told on-call it had stopped
      // (churn-from-boot-48m-poll10: the cache reached 80% 100 s into the page). The flushing a
      // full cache does then also discards code, which is not deoptimisation. Held so only while
      // classes are loaded now: over the window's last third, which a 10 s poll updates at least
      // once.
      if (!(history.rate(window.dividedBy(3), SignalSample::classesLoaded) >= minLoaded)) {
        return List.of();
      }
    } else if (underPressure || discardedByDeoptimization(history, window, recompiles, deopts)) {
      return List.of();
    }
    List<List<SignalSample>> slices = SubWindows.of(history, window, SubWindows.PARTS);
    Predicate<List<SignalSample>> reloading =
        slice ->
            recompileRate(slice) >= minRecompiles
                && ChurnSignature.mostlyRecompiling(slice)
                && SubWindows.rate(slice, SignalSample::classesLoaded, s -> true) >= minLoaded;
    // A fresh page needs the reloading sustained since the recompiling last stopped (under the
    // half rate a firing alert holds at): a resolved episode's sub-windows still in the window and
    // one tail after it (a plugin reloaded once, 20 s later) made four and paged it again.
    Predicate<List<SignalSample>> stopped = slice -> recompileRate(slice) < minRecompiles / 2;
    if (!context.firing("")
        && !SubWindows.sustainedSince(slices, stopped, reloading, context.threshold(SUSTAINED))) {
      return List.of();
    }
    int held = SubWindows.holding(slices, reloading);
    return List.of(ClassLoaderChurnFinding.of(context, window, samples, held));
  }

  /**
   * Deoptimisation discards a material part of the code compiled again: deoptimisations at a
   * quarter of the recompilations or more. A JVM without jdk.Deoptimization (before JDK 14) tells
   * it by what deoptimisation leaves behind: a tenth of the recompilations are of a class still
   * loaded (the lab's deopt-storm: a fifth; class loader churn: none). Unknown: judged discarded.
   */
  private static boolean discardedByDeoptimization(
      SignalWindow history, Duration window, double recompiles, double deopts) {
    if (Rates.known(history, SignalSample::deoptimizations)) {
      return deopts >= DEOPTIMIZED * recompiles;
    }
    if (!Rates.known(history, SignalSample::discardedRecompilations)) {
      return true;
    }
    double discarded =
        history.rate(window, SignalSample::discardedRecompilations, SignalSample::jfr);
    return !(discarded < DISCARDED * recompiles);
  }

  private static double recompileRate(List<SignalSample> slice) {
    return SubWindows.rate(slice, SignalSample::recompilations, SignalSample::jfr);
  }
}
