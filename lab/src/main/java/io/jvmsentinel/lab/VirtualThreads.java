package io.jvmsentinel.lab;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * {@code Thread.ofVirtual().unstarted(Runnable)} for scenarios of JDK 21+: the lab is compiled for
 * JDK 11, where neither exists, so it is looked up when a scenario runs.
 */
final class VirtualThreads {
  private final MethodHandle unstarted;

  private VirtualThreads(MethodHandle unstarted) {
    this.unstarted = unstarted;
  }

  /**
   * The factory, or {@link UnsupportedOperationException} naming {@code scenario} before JDK 21
   * (LabMain then exits 2 with the message).
   */
  static VirtualThreads forScenario(String scenario) {
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
          scenario + " needs JDK 21 or later (this is " + System.getProperty("java.version") + ")",
          e);
    }
    try {
      return new VirtualThreads(unstarted.bindTo(ofVirtual.invoke()));
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.ofVirtual() failed", e);
    }
  }

  /** A new virtual thread running {@code task}, started. */
  Thread start(Runnable task) {
    Thread thread;
    try {
      thread = (Thread) unstarted.invokeExact(task);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
    thread.start();
    return thread;
  }
}
