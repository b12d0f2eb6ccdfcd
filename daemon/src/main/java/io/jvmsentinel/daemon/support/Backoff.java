package io.jvmsentinel.daemon.support;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential reconnect delays with "equal jitter": each delay is drawn from [d/2, d] where d
 * doubles from the initial delay up to the cap. Half the delay stays fixed, so a quickly restarted
 * target is found again fast; the random half keeps many daemons from reconnecting in lockstep.
 */
public final class Backoff {
  private final long initialMillis;
  private final long maxMillis;
  private final DoubleSupplier random;
  private int attempt;

  public Backoff(Duration initial, Duration max, DoubleSupplier random) {
    this.initialMillis = Math.max(1, initial.toMillis());
    this.maxMillis = Math.max(initialMillis, max.toMillis());
    this.random = random;
  }

  /** The delay before the next attempt; each call grows the ceiling until it reaches the cap. */
  public Duration next() {
    long ceiling = ceiling(attempt);
    attempt = Math.min(attempt + 1, 62);
    long half = ceiling / 2;
    return Duration.ofMillis(half + (long) (random.getAsDouble() * (ceiling - half)));
  }

  public void reset() {
    attempt = 0;
  }

  private long ceiling(int n) {
    long ceiling = initialMillis;
    for (int i = 0; i < n && ceiling < maxMillis; i++) {
      ceiling *= 2;
    }
    return Math.min(ceiling, maxMillis);
  }
}
