package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.EvidenceOrder;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@link ClassLoaderChurnRule} tells on call: the mechanism, its cost and where to look. */
final class ClassLoaderChurnFinding {
  private ClassLoaderChurnFinding() {}

  static Finding of(RuleContext context, Duration window, List<SignalSample> samples, int held) {
    SignalWindow history = context.history();
    double recompiles = history.rate(window, SignalSample::recompilations, SignalSample::jfr);
    double compiles = history.rate(window, SignalSample::compilations, SignalSample::jfr);
    double loaded = history.rate(window, SignalSample::classesLoaded);
    double unloaded = history.rate(window, SignalSample::classesUnloaded);
    double cores = history.rate(window, SignalSample::compilerCpuSeconds);
    double occupancy = SubWindows.maxOccupancy(samples);
    boolean dropped = history.increase(ChurnSignature.UNLOADING, SignalSample::classesUnloaded) > 0;
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("recompilationsPerSecond", Rates.rounded(recompiles));
    evidence.put("compilationsPerSecond", Rates.rounded(compiles));
    evidence.put("classesLoadedPerSecond", Rates.rounded(loaded));
    evidence.put("classesUnloadedPerSecond", Rates.rounded(unloaded));
    evidence.put(
        "deoptimizationsPerSecond",
        Rates.rounded(history.rate(window, SignalSample::deoptimizations, SignalSample::jfr)));
    evidence.put("compilerCores", Rates.rounded(cores));
    evidence.put(
        "compilerCpuShare",
        Rates.rounded(Rates.mean(context, window, SignalSample::compilerCpuShare)));
    evidence.put("maxOccupancy", Rates.rounded(occupancy));
    evidence.put("subWindowsHeld", held + " of " + SubWindows.PARTS);
    evidence.put("mostRecompiledMethods", CodeCacheEvidence.mostRecompiled(samples));
    return new Finding(
        "",
        "Class loader churn on "
            + context.target()
            + ": the same methods compiled again "
            + Rates.format(recompiles)
            + "/s because their class loaders are "
            + (dropped ? "dropped and reloaded" : "replaced by new ones"),
        "The JIT compiles again methods it had already compiled ("
            + Rates.format(recompiles)
            + "/s of "
            + Rates.format(compiles)
            + " compilations/s, in "
            + held
            + " of the last "
            + SubWindows.PARTS
            + " sub-windows) while the target loads "
            + Rates.format(loaded)
            + " classes/s"
            + (dropped
                ? " and unloads " + Rates.format(unloaded) + "/s"
                : " and has unloaded none lately")
            + ": the same classes are defined again by new class loaders, and to the JVM each"
            + " definition is new code, interpreted, profiled and compiled anew"
            + (dropped
                ? ", its old code unloaded with the old loader."
                : "; the old loaders stay reachable, so metaspace and the code cache grow.")
            + " The code cache is not under pressure ("
            + (Double.isNaN(occupancy) ? "occupancy unknown" : Rates.percent(occupancy) + " full")
            + "): a larger one would not help. The compiler threads use "
            + Rates.format(cores)
            + " cores on it.",
        "Find what creates the class loaders (the most recompiled methods name their classes;"
            + " jcmd <pid> VM.classloader_stats lists the loaders): a script engine compiling a"
            + " script per call (Groovy, GraalJS), a template, rule or plugin reload, proxies or"
            + " bytecode generated with a new loader each time. Create the loader once and reuse"
            + " it, or cache the compiled scripts and generated classes.",
        EvidenceOrder.causeFirst(
            evidence,
            "mostRecompiledMethods",
            "classesLoadedPerSecond",
            "classesUnloadedPerSecond"));
  }
}
