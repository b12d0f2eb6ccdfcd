package io.jvmsentinel.collectors.jfr.compiler;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.jfr.handler.EventSettings;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.support.CardinalityCap;
import io.jvmsentinel.collectors.support.EventFields;
import io.jvmsentinel.collectors.support.IntervalCounts;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Every JIT compilation: count by compiler, tier, OSR and outcome, its duration, and the machine
 * code it produced. Threshold 0 ms because warm-up and churn are made of many short compilations
 * (about 5,000 in 75 s of warm-up); no stack trace (the event's thread is a compiler thread).
 */
public final class CompilationHandler implements JfrEventHandler {
  public static final String EVENT = "jdk.Compilation";

  private final Tags tags;
  private final CardinalityCap compilers = new CardinalityCap(4);
  private final CardinalityCap tiers = new CardinalityCap(8);
  private final Map<Tags, Counter> compilations = new ConcurrentHashMap<>();
  private final Map<String, Timer> durations = new ConcurrentHashMap<>();
  private final Map<String, Counter> code = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong total =
      new java.util.concurrent.atomic.AtomicLong();
  private final AtomicLong recompilations = new AtomicLong();
  private final AtomicLong discarded = new AtomicLong();
  // Owned by the stream thread: by method name, and by method of one loaded class (its JFR class
  // id, which a copy loaded again by a new class loader does not share); each at most 1 MB.
  private final CompiledMethods compiled = new CompiledMethods();
  private final CompiledMethods compiledInClass = new CompiledMethods();
  private final IntervalCounts recompiled = new IntervalCounts();
  private final IntervalCounts recompiledDiscarded = new IntervalCounts();
  private MeterRegistry registry;

  public CompilationHandler(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String eventName() {
    return EVENT;
  }

  @Override
  public EventSettings settings() {
    return EventSettings.duration(Duration.ZERO, false);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    compilers.bindTo(registry, tags, Metric.JVM_JIT_COMPILATIONS, "compiler");
    tiers.bindTo(registry, tags, Metric.JVM_JIT_COMPILATIONS, "tier");
    Metric.JVM_JIT_RECOMPILATIONS.functionCounter(registry, tags, recompilations, AtomicLong::get);
    Metric.JVM_JIT_RECOMPILATIONS_DISCARDED.functionCounter(
        registry, tags, discarded, AtomicLong::get);
  }

  @Override
  public void accept(RecordedEvent event) {
    total.incrementAndGet();
    String rawCompiler = EventFields.string(event, "compiler");
    String compiler =
        compilers.value(rawCompiler == null ? null : rawCompiler.toLowerCase(Locale.ROOT));
    long level = EventFields.count(event, "compileLevel");
    String tier = tiers.value(level < 0 ? null : Long.toString(level));
    Boolean osr = EventFields.bool(event, "isOsr");
    // "succeded" is the event's own spelling (JDK 17 to 25).
    Boolean succeeded = EventFields.bool(event, "succeded");
    Tags key =
        Tags.of(
            "compiler",
            compiler,
            "tier",
            tier,
            "osr",
            osr == null ? CardinalityCap.UNKNOWN : osr.toString(),
            "outcome",
            succeeded == null ? CardinalityCap.UNKNOWN : succeeded ? "success" : "failure");
    compilations
        .computeIfAbsent(key, k -> Metric.JVM_JIT_COMPILATIONS.counter(registry, tags.and(k)))
        .increment();
    durations
        .computeIfAbsent(
            compiler,
            c -> Metric.JVM_JIT_COMPILATION_DURATION.timer(registry, tags.and("compiler", c)))
        .record(event.getDuration());
    if (Boolean.TRUE.equals(succeeded) && !Boolean.TRUE.equals(osr)) {
      countRecompilation(event, level);
    }
    double codeSize = EventFields.number(event, "codeSize");
    if (!Double.isNaN(codeSize) && codeSize > 0) {
      code.computeIfAbsent(
              compiler,
              c -> Metric.JVM_JIT_COMPILED_CODE.counter(registry, tags.and("compiler", c)))
          .increment(codeSize);
    }
  }

  /**
   * A standard (not OSR) compilation of a method already compiled at the same tier on this stream:
   * the same code compiled again. OSR compilations are left out: a long loop gets several, at
   * different bytecode indexes, on its first run. When the method's class is the one compiled
   * before (the same JFR class id, not a copy loaded again), its compiled code was discarded.
   */
  private void countRecompilation(RecordedEvent event, long level) {
    String method = EventFields.methodWithDescriptor(event, "method");
    if (method == null) {
      return;
    }
    long classId = EventFields.methodClassId(event, "method");
    boolean sameClass = classId != -1 && compiledInClass.compiledBefore(classId, method, level);
    if (compiled.compiledBefore(method, level)) {
      recompilations.incrementAndGet();
      String name = EventFields.method(event, "method");
      recompiled.add(name, "tier " + level);
      if (sameClass) {
        discarded.incrementAndGet();
        recompiledDiscarded.add(name, "tier " + level);
      }
    }
  }

  /**
   * Recompilations (the same method compiled again at the same tier on this stream) since the
   * daemon started, monotonic: with code cache pressure, the signature of churn.
   */
  public long recompilations() {
    return recompilations.get();
  }

  /** The {@code n} methods recompiled most since the last call, with their tiers. */
  public List<IntervalCounts.Count> drainRecompiled(int n) {
    return recompiled.drain(n);
  }

  /**
   * Of the recompilations, those of a method of the same loaded class (monotonic): compiled code
   * discarded (deoptimised and made not entrant, or flushed) and compiled again, not a class loaded
   * again by a new class loader.
   */
  public long discardedRecompilations() {
    return discarded.get();
  }

  /** The {@code n} methods whose discarded code was recompiled most since the last call. */
  public List<IntervalCounts.Count> drainDiscarded(int n) {
    return recompiledDiscarded.drain(n);
  }

  /** A new stream may be a new JVM whose code is all new: what it compiles is first-time again. */
  @Override
  public void streamStopped() {
    compiled.clear();
    compiledInClass.clear();
  }

  /** Compilations seen since the daemon started (monotonic across reconnects), for detection. */
  public long total() {
    return total.get();
  }
}
