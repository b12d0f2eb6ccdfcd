package io.jvmsentinel.daemon.alert;

import java.time.Duration;

/**
 * Whether a target is still warming up: JIT activity in its first minutes is warm-up, not churn.
 * Warm-up lasts at least {@code minimum} of target uptime, and is extended (up to {@code maximum})
 * while the compile rate is still falling: a JIT that compiles less each minute is settling.
 */
public record WarmUp(Duration minimum, Duration maximum) {
  public static final WarmUp DEFAULT = new WarmUp(Duration.ofMinutes(3), Duration.ofMinutes(10));

  public boolean warmingUp(SignalWindow history) {
    var latest = history.latest();
    if (latest.isEmpty() || Double.isNaN(latest.get().uptimeSeconds())) {
      return true;
    }
    double uptime = latest.get().uptimeSeconds();
    if (uptime < minimum.toSeconds()) {
      return true;
    }
    if (uptime >= maximum.toSeconds()) {
      return false;
    }
    return compileRateFalling(history);
  }

  private static boolean compileRateFalling(SignalWindow history) {
    Duration minute = Duration.ofMinutes(1);
    double recent = history.rate(minute, SignalSample::compileMillis);
    double before =
        history.rateEndingAgo(minute, minute, SignalSample::compileMillis, sample -> true);
    if (Double.isNaN(recent) || Double.isNaN(before)) {
      return false;
    }
    return recent < before * 0.8;
  }
}
