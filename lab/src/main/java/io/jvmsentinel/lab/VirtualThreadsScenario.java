package io.jvmsentinel.lab;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A healthy Loom service (JDK 21+): the {@code healthy} service throughout, and each request served
 * on a new virtual thread, {@code --rate} a second (default {@value #DEFAULT_RATE}), counted in the
 * {@link RequestCounter}. Thousands of thread starts a second that are no storm: a virtual thread
 * is a cheap task object mounted on a few carrier threads, not an OS thread. One request in {@value
 * #LEGACY_EVERY} also queries a {@link LegacyConnection}, which pins its carrier for 25 ms on JDK
 * 21 to 23 (half a carrier held on average at the default rate): pinning a service lives with,
 * charted and not an incident. Onsets {@code steady} (the service), then {@code virtual-threads}.
 */
final class VirtualThreadsScenario implements Scenario {

  static final int DEFAULT_RATE = 1_000;
  // Parked, a virtual thread leaves its carrier: requests overlap as a Loom service's do.
  private static final long REQUEST_WAIT_MILLIS = 5;
  static final int LEGACY_EVERY = 50;

  private final LabOptions options;
  private final int rate;

  VirtualThreadsScenario(LabOptions options) {
    this.options = options;
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "virtual-threads";
  }

  @Override
  public String description() {
    return "healthy, and each request on a new virtual thread, --rate per second (default "
        + DEFAULT_RATE
        + "; JDK 21+)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    MethodHandle unstarted = virtualThreadBuilder();
    Thread service = Phases.startInBackground(new HealthyScenario(options), log);
    try {
      log.onset("virtual-threads", "rate", rate);
      RateLoop.run(rate, request -> serveOnVirtualThread(unstarted, request));
    } finally {
      service.interrupt();
    }
  }

  /** The creator site: one new virtual thread per request. */
  private static void serveOnVirtualThread(MethodHandle unstarted, long request) {
    Thread thread;
    try {
      thread = (Thread) unstarted.invokeExact((Runnable) () -> serve(request));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
    thread.start();
  }

  private static void serve(long request) {
    try {
      Thread.sleep(REQUEST_WAIT_MILLIS);
      if (request % LEGACY_EVERY == 0) {
        Blackhole.consume(LegacyConnection.pooled(request / LEGACY_EVERY).execute(request));
      }
    } catch (InterruptedException e) {
      return;
    }
    Blackhole.consume(CpuWork.tiny(request));
  }

  /**
   * {@code Thread.ofVirtual().unstarted(Runnable)} as a handle taking the task: the lab is compiled
   * for JDK 11, where neither exists.
   */
  private static MethodHandle virtualThreadBuilder() {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    MethodHandle ofVirtual;
    MethodHandle unstarted;
    try {
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualBuilder = Class.forName("java.lang.Thread$Builder$OfVirtual");
      ofVirtual =
          lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualBuilder));
      unstarted =
          lookup.findVirtual(
              builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
    } catch (ReflectiveOperationException e) {
      throw new UnsupportedOperationException(
          "virtual-threads needs JDK 21 or later (this is "
              + System.getProperty("java.version")
              + ")",
          e);
    }
    try {
      return unstarted.bindTo(ofVirtual.invoke());
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.ofVirtual() failed", e);
    }
  }
}
