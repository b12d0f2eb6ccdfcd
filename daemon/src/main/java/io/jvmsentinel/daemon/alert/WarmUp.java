package io.jvmsentinel.daemon.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Whether a target is still warming up: JIT activity in its first minutes is warm-up, not churn.
 * Warm-up lasts at least {@code minimum} of target uptime, and is extended (up to {@code maximum})
 * while the compile rate is still falling: a JIT that compiles less each minute is settling. Once a
 * minute's compile rate has not fallen, warm-up is over for good: a later lull after a burst of new
 * code (a feature switched on, an incident's code paths) is not warm-up, and must not hide what
 * follows (the scenario matrix's deoptimisation storm at 5.5 minutes of uptime was judged "warming
 * up" because the GC pressure phase before it compiled less than the phase before that).
 */
public record WarmUp(Duration minimum, Duration maximum) {
  public static final WarmUp DEFAULT = new WarmUp(Duration.ofMinutes(3), Duration.ofMinutes(10));
  private static final Duration MINUTE = Duration.ofMinutes(1);

  /** Where a target is in its JIT warm-up. */
  public enum Phase {
    /** Its first {@code minimum} of uptime, or uptime unknown: compilation bursts are expected. */
    STARTING,
    /**
     * Past the minimum with the compile rate falling every minute since: a JIT settling, or one
     * that compiles less because it was stopped or starved (a GC storm, a stalled process) or
     * because the minute before compiled an incident's code. Rules that can tell a storm by its own
     * signature judge it here.
     */
    SETTLING,
    /** Over, for good. */
    OVER;

    /** Whether this is still warm-up, starting or settling. */
    public boolean warmingUp() {
      return this != OVER;
    }
  }

  public Phase phase(SignalWindow history) {
    var latest = history.latest();
    if (latest.isEmpty() || Double.isNaN(latest.get().uptimeSeconds())) {
      return Phase.STARTING;
    }
    double uptime = latest.get().uptimeSeconds();
    if (uptime < minimum.toSeconds()) {
      return Phase.STARTING;
    }
    if (uptime >= maximum.toSeconds()) {
      return Phase.OVER;
    }
    return fallingSinceMinimum(history.all(), uptime - minimum.toSeconds())
        ? Phase.SETTLING
        : Phase.OVER;
  }

  /**
   * Whether the compile rate was falling at every sample of the last {@code seconds} (the time
   * since uptime passed the minimum): each minute's rate below 80% of the minute before.
   */
  private static boolean fallingSinceMinimum(List<SignalSample> samples, double seconds) {
    CompileTime compileTime = new CompileTime(samples);
    Instant end = samples.get(samples.size() - 1).at();
    Instant from = end.minusMillis((long) (seconds * 1000));
    for (int i = samples.size() - 1; i >= 0 && !samples.get(i).at().isBefore(from); i--) {
      Instant at = samples.get(i).at();
      double recent = compileTime.rate(at.minus(MINUTE), at);
      double before = compileTime.rate(at.minus(MINUTE).minus(MINUTE), at.minus(MINUTE));
      if (Double.isNaN(recent) || Double.isNaN(before) || !(recent < before * 0.8)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Total compilation time as a cumulative count over the samples, with the rate over any span in
   * logarithmic time (a drop counts as a reset, as in {@link SignalWindow}).
   */
  private static final class CompileTime {
    private final List<SignalSample> samples;
    private final double[] increase;

    CompileTime(List<SignalSample> samples) {
      this.samples = samples;
      this.increase = new double[samples.size()];
      for (int i = 1; i < samples.size(); i++) {
        increase[i] =
            increase[i - 1]
                + SignalWindow.increase(samples.subList(i - 1, i + 1), SignalSample::compileMillis);
      }
    }

    /** The rate between the first and last samples in [from, to]; NaN unless they span half. */
    double rate(Instant from, Instant to) {
      int first = firstAtOrAfter(from);
      int last = firstAtOrAfter(to.plusNanos(1)) - 1;
      if (first >= last) {
        return Double.NaN;
      }
      Duration span = Duration.between(samples.get(first).at(), samples.get(last).at());
      if (span.compareTo(Duration.between(from, to).dividedBy(2)) < 0) {
        return Double.NaN;
      }
      return (increase[last] - increase[first]) / (span.toMillis() / 1000.0);
    }

    private int firstAtOrAfter(Instant at) {
      int low = 0;
      int high = samples.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (samples.get(mid).at().isBefore(at)) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }
  }
}
