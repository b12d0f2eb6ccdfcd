package io.jvmsentinel.daemon.support;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Collects what was shed (events by type, notifications by sink), and says at most once per {@code
 * interval} what was shed since the last time: a storm drops thousands of events a second, one line
 * a minute is enough to notice. Thread-safe: any thread adds (a JFR stream, a notification
 * producer), any thread asks for the line.
 */
public final class DropLog {
  private final Duration interval;
  private final Map<String, LongAdder> pending = new ConcurrentHashMap<>();
  private Instant lastLogged = Instant.MIN;

  public DropLog(Duration interval) {
    this.interval = interval;
  }

  public void dropped(String event) {
    pending.computeIfAbsent(event, e -> new LongAdder()).increment();
  }

  /** The counts to log now, or empty when nothing was shed or the last line is too recent. */
  public synchronized Optional<Map<String, Long>> due(Instant now) {
    if (lastLogged != Instant.MIN && Duration.between(lastLogged, now).compareTo(interval) < 0) {
      return Optional.empty();
    }
    Map<String, Long> counts = new TreeMap<>();
    pending.forEach(
        (event, adder) -> {
          long count = adder.sumThenReset();
          if (count > 0) {
            counts.put(event, count);
          }
        });
    if (counts.isEmpty()) {
      return Optional.empty();
    }
    lastLogged = now;
    return Optional.of(counts);
  }
}
