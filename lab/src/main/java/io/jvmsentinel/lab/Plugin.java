package io.jvmsentinel.lab;

import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * A plugin of {@value #CLASSES} handler classes defined by one class loader of their own, as a
 * plugin host loads a plugin's jar: each handler is {@link HotCodeTemplate} under a name of its
 * own, so each is a class with its own methods for the JIT. A request runs through every handler.
 * {@link #reload} loads a fresh copy in a new loader and drops the old one.
 */
final class Plugin implements LongUnaryOperator {

  static final int CLASSES = 300;
  // Internal form: the name goes into the class file as it is.
  private static final String PREFIX = "io/jvmsentinel/lab/plugin/Handler";

  private volatile List<LongUnaryOperator> handlers = load();

  @Override
  public long applyAsLong(long seed) {
    long sum = CpuWork.request(seed);
    for (LongUnaryOperator handler : handlers) {
      sum += handler.applyAsLong(seed);
    }
    return sum;
  }

  /** Switches the requests to a fresh copy; the old loader is unreachable once they finish. */
  void reload() {
    handlers = load();
  }

  private static List<LongUnaryOperator> load() {
    return RenamedClass.newInstances(
        HotCodeTemplate.class, PREFIX, CLASSES, LongUnaryOperator.class);
  }
}
