package io.jvmsentinel.collectors.support;

import java.util.function.ToDoubleFunction;

/**
 * The latest snapshot a poller read from the target. Gauges see NaN while there is no current
 * snapshot (target down), counters keep the last value they saw: a cumulative count does not become
 * unknown just because the target stopped answering.
 */
public final class LatestReading<T> {
  private volatile T current;
  private volatile T last;

  public void update(T snapshot) {
    current = snapshot;
    last = snapshot;
  }

  public void clear() {
    current = null;
  }

  public T current() {
    return current;
  }

  public double gauge(ToDoubleFunction<T> value) {
    T snapshot = current;
    return snapshot == null ? Double.NaN : value.applyAsDouble(snapshot);
  }

  public double counter(ToDoubleFunction<T> value) {
    T snapshot = last;
    return snapshot == null ? 0 : value.applyAsDouble(snapshot);
  }
}
