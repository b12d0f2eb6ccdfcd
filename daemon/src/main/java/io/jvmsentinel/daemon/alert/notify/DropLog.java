package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * WARNs about dropped notifications: the first drop at once, then at most one line per interval
 * that also says how many were dropped in between. A sink that is down for an hour under an alert
 * storm must not bury the log, and must not drop silently either.
 */
final class DropLog {
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final Logger log;
  private final String sink;
  private final int capacity;
  private final LongSupplier nanoTime;
  private long lastLogged;
  private boolean loggedOnce;
  private long unlogged;

  DropLog(Logger log, String sink, int capacity, LongSupplier nanoTime) {
    this.log = log;
    this.sink = sink;
    this.capacity = capacity;
    this.nanoTime = nanoTime;
  }

  synchronized void dropped(AlertNotification n, String why) {
    long now = nanoTime.getAsLong();
    if (loggedOnce && now - lastLogged < INTERVAL.toNanos()) {
      unlogged++;
      return;
    }
    log.warn(
        "sink {}: {}; dropped {} {} ({}){}",
        sink,
        why.isEmpty() ? "queue full (" + capacity + " waiting)" : why,
        n.status(),
        n.dedupKey(),
        n.summary(),
        unlogged == 0 ? "" : "; " + unlogged + " more dropped since the last message");
    loggedOnce = true;
    lastLogged = now;
    unlogged = 0;
  }
}
