package io.jvmsentinel.lab;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Incident 4, codecache churn: a steady stream of new hot code on a small code cache. Each round
 * loads a fresh copy of {@link HotCodeTemplate} and calls it until the JIT has compiled it; only
 * the last {@value #KEEP} copies stay reachable, and every {@value #UNLOAD_EVERY} copies a {@code
 * System.gc()} (as an application or a metaspace threshold would) unloads the dropped classes, so
 * their code is made not entrant and flushed (by the sweeper on JDK 17, by {@code CodeCache GC
 * Threshold} collections on JDK 20+). The launcher sets the small cache ({@code
 * io.jvmsentinel.daemon.lab.LabScenarios}): occupancy stays near the maximum while the JIT keeps
 * compiling.
 */
final class CodeCacheChurnScenario implements Scenario {

  static final int DEFAULT_RATE = 20;
  static final int CALLS_PER_COPY = 30_000;
  static final int KEEP = 40;
  static final int WORKING_SET_CALLS = 100;
  static final int UNLOAD_EVERY = 50;

  private final int rate;

  CodeCacheChurnScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "codecache-churn";
  }

  @Override
  public String description() {
    return "new hot code (class copies) --rate per second (default "
        + DEFAULT_RATE
        + "), last "
        + KEEP
        + " kept: compile, unload, flush, recompile (needs a small code cache)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("churn", "rate", rate, "keep", KEEP, "unload_every", UNLOAD_EVERY);
    churn(rate, () -> CALLS_PER_COPY, alive -> alive > KEEP, UNLOAD_EVERY);
  }

  /**
   * Loads {@code rate} fresh copies per second until interrupted, each called {@code callsPerCopy}
   * times, keeping the newest hot (dropping the oldest while {@code tooMany} says so) and unloading
   * the dropped every {@code unloadEvery} copies.
   */
  static void churn(int rate, IntSupplier callsPerCopy, IntPredicate tooMany, int unloadEvery)
      throws InterruptedException {
    GeneratedCode code = new GeneratedCode(HotCodeTemplate.class);
    Deque<LongUnaryOperator> alive = new ArrayDeque<>();
    long[] sink = {0};
    RateLoop.run(
        rate,
        sequence -> {
          LongUnaryOperator copy = code.newCopy(LongUnaryOperator.class);
          sink[0] += run(copy, sequence, callsPerCopy.getAsInt());
          alive.addLast(copy);
          while (alive.size() > 1 && tooMany.test(alive.size())) {
            alive.removeFirst();
          }
          for (LongUnaryOperator hot : alive) {
            for (int i = 0; i < WORKING_SET_CALLS; i++) {
              sink[0] += hot.applyAsLong(i);
            }
          }
          if ((sequence + 1) % unloadEvery == 0) {
            System.gc();
          }
        });
    Blackhole.consume(sink[0]);
  }

  /** Enough calls for C1 and C2 to compile the copy's methods. */
  static long runUntilCompiled(LongUnaryOperator copy, long seed) {
    return run(copy, seed, CALLS_PER_COPY);
  }

  private static long run(LongUnaryOperator copy, long seed, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += copy.applyAsLong(seed + i);
    }
    return sum;
  }
}
