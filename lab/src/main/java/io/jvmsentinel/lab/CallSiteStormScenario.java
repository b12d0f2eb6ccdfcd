package io.jvmsentinel.lab;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * A deoptimisation storm without an uncommon trap, on classes that stay loaded: eight hot methods
 * call through a {@link MutableCallSite} whose target the JIT inlines, and {@code --rate} times a
 * second (default {@value #DEFAULT_RATE}) the site is retargeted. That invalidates the compiled
 * methods through their dependency on the target, which HotSpot throws away without a {@code
 * jdk.Deoptimization} event, and the JIT compiles them again. A dynamic language runtime
 * invalidating its switch points, or an agent retransforming classes over and over, does this.
 */
final class CallSiteStormScenario implements Scenario {
  static final int DEFAULT_RATE = 4;
  private static final int CALLS_PER_BATCH = 2_000;

  private static final MutableCallSite SITE =
      new MutableCallSite(MethodType.methodType(int.class, int.class));
  private static final MethodHandle TARGET = SITE.dynamicInvoker();

  private final int rate;

  CallSiteStormScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "callsite-storm";
  }

  @Override
  public String description() {
    return "eight hot methods inline a call site's target, retargeted --rate times a second"
        + " (default "
        + DEFAULT_RATE
        + "): compiled code invalidated without a deoptimisation event";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    MethodHandle[] targets = {target("plusOne"), target("triple")};
    SITE.setTarget(targets[0]);
    log.onset("callsite", "rate", rate);
    long sink = 0;
    long round = 0;
    long roundNanos = 1_000_000_000L / rate;
    while (true) {
      long roundEnd = System.nanoTime() + roundNanos;
      while (System.nanoTime() < roundEnd) {
        if (Thread.interrupted()) {
          Blackhole.consume(sink);
          throw new InterruptedException();
        }
        for (int i = 0; i < CALLS_PER_BATCH; i++) {
          sink += hot0(i) + hot1(i) + hot2(i) + hot3(i) + hot4(i) + hot5(i) + hot6(i) + hot7(i);
        }
      }
      SITE.setTarget(targets[(int) (++round % 2)]);
    }
  }

  private static MethodHandle target(String name) {
    try {
      return MethodHandles.lookup()
          .findStatic(
              CallSiteStormScenario.class, name, MethodType.methodType(int.class, int.class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int plusOne(int x) {
    return x + 1;
  }

  private static int triple(int x) {
    return x * 3;
  }

  private static int call(int x) {
    try {
      return (int) TARGET.invokeExact(x);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  static int hot0(int x) {
    return call(x) + 1;
  }

  static int hot1(int x) {
    return call(x) ^ 7;
  }

  static int hot2(int x) {
    return call(x) - 3;
  }

  static int hot3(int x) {
    return call(x) * 5;
  }

  static int hot4(int x) {
    return call(x) | 9;
  }

  static int hot5(int x) {
    return call(x) >>> 1;
  }

  static int hot6(int x) {
    return call(x + 11);
  }

  static int hot7(int x) {
    return call(x) & 0xffff;
  }
}
