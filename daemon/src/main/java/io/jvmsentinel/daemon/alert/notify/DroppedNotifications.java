package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.support.DropLog;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * WARNs about dropped notifications: the first drop at once, then at most one line per interval
 * that also says how many were dropped in between. A sink that is down for an hour under an alert
 * storm must not bury the log, and must not drop silently either.
 */
final class DroppedNotifications {
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final DropLog drops = new DropLog(INTERVAL);
  private final Logger log;
  private final String sink;
  private final int capacity;
  private final Supplier<Instant> clock;

  DroppedNotifications(Logger log, String sink, int capacity, Supplier<Instant> clock) {
    this.log = log;
    this.sink = sink;
    this.capacity = capacity;
    this.clock = clock;
  }

  void dropped(AlertNotification n, String why) {
    drops.dropped(sink);
    drops
        .due(clock.get())
        .ifPresent(
            counts -> {
              long unlogged = counts.getOrDefault(sink, 1L) - 1;
              log.warn(
                  "sink {}: {}; dropped {} {} ({}){}",
                  sink,
                  why.isEmpty() ? "queue full (" + capacity + " waiting)" : why,
                  n.status(),
                  n.dedupKey(),
                  n.summary(),
                  unlogged == 0 ? "" : "; " + unlogged + " more dropped since the last message");
            });
  }
}
