package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides, once a second, whether {@code jdk.ThreadStart} should carry stack traces now.
 *
 * <p>Stacks on every start cost a thread-storming target a quarter of its throughput (0.75 against
 * 0.88 without, {@code shared/JFR-FACTS.md}). The start rate itself comes from counting every
 * start, stack or not, so it stays exact; stacks are needed only to name the creator, and a storm
 * names its creator within a few samples. So: below {@code aboveRate} every start carries its stack
 * (a single creator site starting a few threads is still caught); once the rate is above it, stacks
 * are on for {@code window} out of every {@code every}, starting with a pause (the starts that
 * revealed the storm were recorded with stacks). Back to always-on only when the rate falls under
 * half of {@code aboveRate}, so a rate hovering at the limit does not flap. Pure logic: the caller
 * passes the time and the running count.
 */
final class StackSampling {
  /** The rate is measured over at least this long: events arrive in flushes about once a second. */
  static final Duration RATE_WINDOW = Duration.ofSeconds(3);

  private final double aboveRate;
  private final Duration window;
  private final Duration every;
  private final RunningRate rate = new RunningRate(RATE_WINDOW);
  private Instant sampledSince;

  StackSampling(double aboveRate, Duration window, Duration every) {
    if (aboveRate <= 0 || window.isNegative() || every.compareTo(window) <= 0) {
      throw new IllegalArgumentException(
          "need a positive rate and a window shorter than its period: "
              + aboveRate
              + ", "
              + window
              + ", "
              + every);
    }
    this.aboveRate = aboveRate;
    this.window = window;
    this.every = every;
  }

  /** Whether stacks are sampled (true) or always on (false) after the latest update. */
  boolean sampling() {
    return sampledSince != null;
  }

  /**
   * Feeds the running count of starts at {@code now}; returns whether starts should carry stack
   * traces from now on.
   */
  boolean update(Instant now, long totalStarts) {
    // NaN while too short to judge (just started, or restarted): the current mode stays.
    double measured = rate.update(now, totalStarts);
    if (sampledSince == null && measured >= aboveRate) {
      sampledSince = now;
    } else if (sampledSince != null && measured < aboveRate / 2) {
      sampledSince = null;
    }
    if (sampledSince == null) {
      return true;
    }
    long into = Duration.between(sampledSince, now).toMillis() % every.toMillis();
    return into >= every.toMillis() - window.toMillis();
  }

  /** Forgets the rate history, e.g. when the stream restarts and stacks are on again. */
  void reset() {
    rate.reset();
    sampledSince = null;
  }
}
