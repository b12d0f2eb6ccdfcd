package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Delivery as a specification: order, retry with backoff, give-up and drop semantics. Waits go
 * through a fake sleeper that only records them (and advances a fake clock), so nothing here
 * sleeps; the backoff's jitter is pinned to its ceiling (random = 1.0).
 */
class DeliveryTest {
  static final Duration ONE_SECOND = Duration.ofSeconds(1);
  static final Duration ONE_MINUTE = Duration.ofSeconds(60);

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final ScriptedNotifier sink = new ScriptedNotifier();
  final List<Duration> waits = new CopyOnWriteArrayList<>();
  final AtomicLong fakeMillis = new AtomicLong();
  Delivery delivery;

  Delivery start(int capacity) {
    return start(
        capacity,
        d -> {
          waits.add(d);
          fakeMillis.addAndGet(d.toMillis());
        });
  }

  Delivery start(int capacity, Delivery.Sleeper sleeper) {
    delivery =
        Delivery.start(
            sink, capacity, new Backoff(ONE_SECOND, ONE_MINUTE, () -> 1.0), sleeper, registry);
    return delivery;
  }

  @AfterEach
  void close() {
    if (delivery != null) {
      delivery.close(Duration.ZERO);
    }
  }

  // Everything submitted so far is through (delivered, failed or skipped) and counted.
  void awaitIdle() {
    try {
      assertThat(delivery.awaitIdle(Duration.ofSeconds(10))).as("delivery idle").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  double count(String outcome) {
    return registry
        .get("jvm.sentinel.notifications")
        .tags("sink", "fake", "outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void deliversInSubmissionOrder() {
    start(10);
    AlertNotification a = firing("A", "orders");
    AlertNotification b = firing("B", "orders");
    delivery.submit(a);
    delivery.submit(b);
    delivery.submit(resolved(a));

    awaitIdle();
    assertThat(sink.delivered).containsExactly(a, b, resolved(a));
    assertThat(count("delivered")).isEqualTo(3);
    assertThat(count("retried")).isZero();
    assertThat(waits).isEmpty();
  }

  @Test
  void retriesTheSameNotificationWithDoublingDelaysUpToTheCap() {
    AlertNotification a = firing("A", "orders");
    AtomicLong failuresLeft = new AtomicLong(8);
    sink.down = n -> failuresLeft.getAndDecrement() > 0;
    start(10);

    delivery.submit(a);
    delivery.submit(resolved(a));

    awaitIdle();
    assertThat(sink.delivered).containsExactly(a, resolved(a));
    assertThat(waits)
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(32),
            Duration.ofSeconds(60),
            Duration.ofSeconds(60));
    assertThat(sink.attempts).hasSize(10).containsOnlyOnce(resolved(a)).endsWith(resolved(a));
    assertThat(sink.attempts.subList(0, 9)).containsOnly(a);
    assertThat(count("retried")).isEqualTo(8);
    assertThat(count("delivered")).isEqualTo(2);
  }

  @Test
  void theBackoffStartsOverAfterASuccess() {
    AtomicLong failuresLeft = new AtomicLong(3);
    sink.down = n -> n.ruleId().equals("A") ? failuresLeft.getAndDecrement() > 0 : false;
    start(10);
    delivery.submit(firing("A", "orders"));
    awaitIdle();

    failuresLeft.set(2);
    delivery.submit(firing("A", "payments"));

    awaitIdle();
    assertThat(waits)
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2));
  }

  @Test
  void aSinkDownForTenMinutesGetsEverythingInOrderWhenItRecovers() {
    long recoversAt = Duration.ofMinutes(10).toMillis();
    sink.down = n -> fakeMillis.get() < recoversAt;
    start(10);
    AlertNotification a = firing("A", "orders");
    AlertNotification b = firing("B", "orders");
    List<AlertNotification> sent = List.of(a, b, resolved(a), resolved(b));
    sent.forEach(delivery::submit);

    awaitIdle();
    assertThat(sink.delivered).containsExactlyElementsOf(sent);
    // 1+2+4+8+16+32 = 63 s, then nine 60 s waits: the first attempt after recovery is at 603 s.
    assertThat(waits).hasSize(15).startsWith(ONE_SECOND).endsWith(ONE_MINUTE);
    assertThat(Duration.ofMillis(fakeMillis.get())).isEqualTo(Duration.ofSeconds(603));
    assertThat(count("retried")).isEqualTo(15);
    assertThat(count("delivered")).isEqualTo(4);
  }

  @Test
  void aRejectedNotificationIsCountedFailedAndSkipped() {
    AlertNotification bad = firing("Bad", "orders");
    AlertNotification good = firing("Good", "orders");
    sink.rejects = n -> n.equals(bad);
    start(10);

    delivery.submit(bad);
    delivery.submit(good);

    awaitIdle();
    assertThat(sink.delivered).containsExactly(good);
    assertThat(sink.attempts).containsExactly(bad, good);
    assertThat(count("failed")).isEqualTo(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void aFullQueueDropsTheNewNotificationAndCountsIt() throws Exception {
    CountDownLatch retrying = new CountDownLatch(1);
    CountDownLatch recover = new CountDownLatch(1);
    sink.down = n -> recover.getCount() > 0;
    start(
        2,
        d -> {
          retrying.countDown();
          recover.await(); // the sink stays down, the first notification stays in flight
        });
    AlertNotification first = firing("1", "t");
    delivery.submit(first);
    assertThat(retrying.await(10, TimeUnit.SECONDS)).isTrue();

    assertThat(delivery.submit(firing("2", "t"))).isTrue();
    assertThat(delivery.submit(firing("3", "t"))).isTrue();
    assertThat(delivery.submit(firing("4", "t"))).isFalse();

    assertThat(count("dropped")).isEqualTo(1);
    assertThat(delivery.pending()).isEqualTo(3); // two waiting, one in flight
    assertThat(registry.get("jvm.sentinel.notification.queue").tag("sink", "fake").gauge().value())
        .isEqualTo(3);
    recover.countDown();
    awaitIdle();
    assertThat(sink.delivered).containsExactly(first, firing("2", "t"), firing("3", "t"));
    assertThat(delivery.pending()).isZero();
  }

  @Test
  void afterCloseNotificationsAreDroppedNotLost() {
    start(10);
    delivery.submit(firing());
    delivery.close(Duration.ofSeconds(10));

    assertThat(sink.delivered).containsExactly(firing());
    assertThat(delivery.submit(firing())).isFalse();
    assertThat(count("dropped")).isEqualTo(1);
  }

  @Test
  void dropsAreLoggedAtMostOncePerMinuteWithTheCountInBetween() {
    Logger logger = new LoggerContext().getLogger("drops");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    AtomicLong nanos = new AtomicLong();
    DroppedNotifications drops =
        new DroppedNotifications(logger, "slack", 1000, () -> Instant.EPOCH.plusNanos(nanos.get()));

    for (int i = 0; i < 5; i++) {
      drops.dropped(firing(), "");
      nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    }
    nanos.addAndGet(Duration.ofSeconds(20).toNanos());
    drops.dropped(resolved(), "");

    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "sink slack: queue full (1000 waiting); dropped FIRING jvm-sentinel/ThreadStorm/orders"
                + " (Thread storm on orders: 212 thread starts/s)",
            "sink slack: queue full (1000 waiting); dropped RESOLVED"
                + " jvm-sentinel/ThreadStorm/orders (Thread storm on orders: 212 thread starts/s);"
                + " 4 more dropped since the last message");
    assertThat(lines.list).extracting(e -> e.getLevel().toString()).containsOnly("WARN");
  }
}
