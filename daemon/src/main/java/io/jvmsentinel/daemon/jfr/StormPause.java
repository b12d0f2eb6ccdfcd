package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides, once a second, whether a thread storm is heavy enough to close the JFR stream for a
 * while, from a running count of thread starts (the stream's own count while it runs, the target's
 * JMX {@code TotalStartedThreadCount} while it is paused; the caller restarts the rate on a
 * switch).
 *
 * <p>Why: a running JFR recording alone, with no event enabled, costs a target that starts 10,000
 * threads/s +43% CPU per thread start on JDK 17 and +6% on JDK 25 (JFR's per-thread work;
 * docs/performance.md, storm cost); no choice of events or stack sampling gets under that, while
 * the JMX connection costs such a target +7 to 13%. So once the start rate stays above {@code
 * aboveRate} and the stream has run through {@code capture} of the storm (long enough for the
 * ThreadStorm alert to fire with the creator's stack), the stream is closed; the storm stays
 * visible through JMX. It is opened again when the rate falls under half of {@code aboveRate} for
 * {@code capture}, and for one capture every {@code probeEvery} while the storm lasts, so its
 * creator sites and the other JFR signals stay current. Pure logic: the caller passes the time, the
 * count and whether its stream is up, and acts on the returned {@link Action}.
 */
final class StormPause {
  /** What the caller does now. */
  enum Action {
    NONE,
    /** Close the stream: the storm is heavy and its evidence captured. */
    PAUSE,
    /** Open the stream again: the storm is over. */
    RESUME,
    /** Open the stream again for one capture: the storm goes on, its evidence is refreshed. */
    PROBE
  }

  static final Duration RATE_WINDOW = Duration.ofSeconds(3);

  private final double aboveRate;
  private final Duration capture;
  private final Duration probeEvery;
  private final RunningRate rate = new RunningRate(RATE_WINDOW);
  private double lastRate = Double.NaN;
  private Instant streamingSince;
  private Instant stormSince;
  private Instant pausedAt;
  private Instant calmSince;

  StormPause(double aboveRate, Duration capture, Duration probeEvery) {
    if (!(aboveRate > 0) || capture.isNegative() || probeEvery.compareTo(capture) <= 0) {
      throw new IllegalArgumentException(
          "need a positive rate and a capture shorter than the probe period: "
              + aboveRate
              + ", "
              + capture
              + ", "
              + probeEvery);
    }
    this.aboveRate = aboveRate;
    this.capture = capture;
    this.probeEvery = probeEvery;
  }

  /** Whether the stream is closed because of a storm. */
  boolean paused() {
    return pausedAt != null;
  }

  /** The start rate last measured, starts/s; NaN before two readings a second apart. */
  double rate() {
    return lastRate;
  }

  /**
   * Feeds the target's started-thread count at {@code now} and whether the caller's stream is up.
   */
  Action update(Instant now, long startedThreads, boolean streaming) {
    lastRate = rate.update(now, startedThreads);
    boolean storming = lastRate >= aboveRate;
    if (pausedAt != null) {
      boolean calm = lastRate < aboveRate / 2;
      calmSince = calm ? (calmSince == null ? now : calmSince) : null;
      if (calmSince != null && !now.isBefore(calmSince.plus(capture))) {
        clearPause();
        return Action.RESUME;
      }
      if (!now.isBefore(pausedAt.plus(probeEvery))) {
        clearPause();
        return Action.PROBE;
      }
      return Action.NONE;
    }
    streamingSince = streaming ? (streamingSince == null ? now : streamingSince) : null;
    stormSince = storming ? (stormSince == null ? now : stormSince) : null;
    if (streamingSince == null || stormSince == null) {
      return Action.NONE;
    }
    Instant capturing = streamingSince.isAfter(stormSince) ? streamingSince : stormSince;
    if (!now.isBefore(capturing.plus(capture))) {
      pausedAt = now;
      calmSince = null;
      return Action.PAUSE;
    }
    return Action.NONE;
  }

  private void clearPause() {
    pausedAt = null;
    calmSince = null;
    streamingSince = null;
  }

  /** The caller now counts starts from another counter: the rate starts again from it. */
  void restartRate() {
    rate.reset();
    lastRate = Double.NaN;
  }

  /**
   * No stream and no pause (JFR unavailable, or starting): the caller stops reading, so the rate
   * must not later span the gap.
   */
  void idle() {
    restartRate();
    streamingSince = null;
    stormSince = null;
  }

  /** Forgets everything, e.g. when the JMX connection is lost (a new target may answer next). */
  void reset() {
    idle();
    pausedAt = null;
    calmSince = null;
  }
}
