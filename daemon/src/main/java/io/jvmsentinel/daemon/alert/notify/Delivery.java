package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one sink's notifications in order, from a bounded queue, on the sink's own daemon
 * thread.
 *
 * <p>Implementation notes: {@link #submit} never blocks: the detection engine must not stall
 * because Slack is slow. A failed attempt is retried with exponential backoff until it succeeds,
 * and the notifications behind it wait, so a sink that comes back after ten minutes receives
 * everything, in order, a resolve never before its trigger. Two things end the wait without
 * delivery, both counted and logged: the receiver refusing the notification for good ({@link
 * RejectedException} or a bug in the notifier: outcome {@code failed}), and a full queue (the new
 * notification is dropped: outcome {@code dropped}).
 */
public final class Delivery implements AutoCloseable {
  /** How long {@link #close()} waits for the queue to drain. */
  public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(Delivery.class);

  /** Waits between attempts; tests replace it so they never sleep. */
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private final Notifier notifier;
  private final BlockingQueue<AlertNotification> queue;
  private final Backoff backoff;
  private final Sleeper sleeper;
  private final DroppedNotifications drops;
  private final Counter delivered;
  private final Counter retried;
  private final Counter failed;
  private final Counter dropped;
  private final Object idle = new Object();
  private final Thread thread;
  // Waiting plus the one in flight: what the queue gauge shows, and what close() waits for.
  private int pending;
  private volatile boolean closed;

  /**
   * Starts the sink's thread.
   *
   * @param capacity notifications that may wait; more are dropped
   * @param retryInitialDelay first wait after a failed attempt; it doubles up to {@code
   *     retryMaxDelay} (each wait is drawn from [d/2, d] so many daemons do not retry in lockstep)
   */
  public static Delivery start(
      Notifier notifier,
      int capacity,
      Duration retryInitialDelay,
      Duration retryMaxDelay,
      MeterRegistry registry) {
    Backoff backoff =
        new Backoff(
            retryInitialDelay, retryMaxDelay, () -> ThreadLocalRandom.current().nextDouble());
    return start(notifier, capacity, backoff, d -> Thread.sleep(d.toMillis()), registry);
  }

  static Delivery start(
      Notifier notifier, int capacity, Backoff backoff, Sleeper sleeper, MeterRegistry registry) {
    Delivery delivery = new Delivery(notifier, capacity, backoff, sleeper, registry);
    delivery.thread.start();
    return delivery;
  }

  private Delivery(
      Notifier notifier, int capacity, Backoff backoff, Sleeper sleeper, MeterRegistry registry) {
    this.notifier = notifier;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.backoff = backoff;
    this.sleeper = sleeper;
    this.drops = new DroppedNotifications(log, notifier.name(), capacity, Instant::now);
    Tags sink = Tags.of("sink", notifier.name());
    this.delivered = outcome(registry, sink, "delivered");
    this.retried = outcome(registry, sink, "retried");
    this.failed = outcome(registry, sink, "failed");
    this.dropped = outcome(registry, sink, "dropped");
    SentinelMetric.SENTINEL_NOTIFICATION_QUEUE.gauge(registry, sink, this, Delivery::pending);
    this.thread = DaemonThreads.unstarted("alert-delivery-" + notifier.name(), this::run);
  }

  private static Counter outcome(MeterRegistry registry, Tags sink, String outcome) {
    return SentinelMetric.SENTINEL_NOTIFICATIONS.counter(registry, sink.and("outcome", outcome));
  }

  public String sink() {
    return notifier.name();
  }

  /** See {@link Notifier#resendsWhileFiring()}. */
  public boolean resendsWhileFiring() {
    return notifier.resendsWhileFiring();
  }

  /**
   * Queues a notification, or drops it (counted, and logged at most once a minute) when the queue
   * is full or the delivery is closed. Never blocks.
   *
   * @return false if it was dropped
   */
  public boolean submit(AlertNotification notification) {
    synchronized (idle) {
      if (!closed && queue.offer(notification)) {
        pending++;
        return true;
      }
    }
    dropped.increment();
    drops.dropped(notification, closed ? "shutting down" : "");
    return false;
  }

  /** Notifications waiting or being delivered. */
  public int pending() {
    synchronized (idle) {
      return pending;
    }
  }

  private void run() {
    try {
      while (true) {
        AlertNotification next = queue.take();
        deliver(next);
        synchronized (idle) {
          pending--;
          idle.notifyAll();
        }
      }
    } catch (InterruptedException e) {
      // close(): whatever is left stays undelivered, as close() has logged
    }
  }

  private void deliver(AlertNotification n) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        notifier.send(n);
        delivered.increment();
        if (attempt > 1) {
          log.info(
              "sink {}: delivered {} {} at attempt {}", sink(), n.status(), n.dedupKey(), attempt);
        }
        backoff.reset();
        return;
      } catch (InterruptedIOException e) {
        throw new InterruptedException("closing");
      } catch (RejectedException e) {
        gaveUp(n, e.getMessage());
        return;
      } catch (IOException e) {
        retried.increment();
        Duration wait = backoff.next();
        log.warn(
            "sink {}: attempt {} to deliver {} {} failed, retrying in {} ms: {}",
            sink(),
            attempt,
            n.status(),
            n.dedupKey(),
            wait.toMillis(),
            e.getMessage());
        sleeper.sleep(wait);
      } catch (RuntimeException e) {
        // A bug, or a value the notifier cannot encode: retrying the same input cannot help.
        gaveUp(n, e.toString());
        return;
      }
    }
  }

  private void gaveUp(AlertNotification n, String why) {
    failed.increment();
    backoff.reset();
    log.error(
        "sink {}: {} {} ({}) was refused and is skipped: {}",
        sink(),
        n.status(),
        n.dedupKey(),
        n.summary(),
        why);
  }

  /** True once nothing is waiting or in flight, false if {@code timeout} passed first. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (idle) {
      while (pending > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        idle.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  /** Stops accepting, waits up to {@link #DRAIN_TIMEOUT} for the queue to drain, then stops. */
  @Override
  public void close() {
    close(DRAIN_TIMEOUT);
  }

  public void close(Duration drainTimeout) {
    synchronized (idle) {
      closed = true;
    }
    try {
      if (!awaitIdle(drainTimeout)) {
        log.warn("sink {}: stopping with {} notification(s) undelivered", sink(), pending());
      }
      thread.interrupt();
      thread.join(1000);
    } catch (InterruptedException e) {
      thread.interrupt();
      Thread.currentThread().interrupt();
    }
  }
}
