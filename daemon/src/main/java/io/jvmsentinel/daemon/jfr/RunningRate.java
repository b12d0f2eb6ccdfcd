package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The per-second rate of a running count over about the last {@code window}, fed about once a
 * second. Pure logic: the caller passes the time and the count.
 */
final class RunningRate {
  private final Duration window;
  private final Deque<Point> points = new ArrayDeque<>();

  private record Point(Instant at, long total) {}

  RunningRate(Duration window) {
    this.window = window;
  }

  /**
   * Adds the count at {@code now} and returns the rate since the oldest reading kept, or NaN while
   * the readings span less than half the window (just started, or reset). A count that went down (a
   * restarted target) reads as 0.
   */
  double update(Instant now, long total) {
    points.addLast(new Point(now, total));
    while (points.size() > 2
        && Duration.between(points.peekFirst().at(), now).compareTo(window) > 0
        && Duration.between(second(), now).compareTo(window) >= 0) {
      points.removeFirst();
    }
    Point oldest = points.peekFirst();
    long millis = Duration.between(oldest.at(), now).toMillis();
    if (millis < window.toMillis() / 2) {
      return Double.NaN;
    }
    return Math.max(0, total - oldest.total()) * 1000.0 / millis;
  }

  private Instant second() {
    var it = points.iterator();
    it.next();
    return it.next().at();
  }

  void reset() {
    points.clear();
  }
}
