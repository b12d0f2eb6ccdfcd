package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServerConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fast detection poll: while the target has no JFR event source, the pollers' detection signals
 * are read every {@code signalPollInterval} on the session's own thread, between full polls (a
 * poller's full read, e.g. a thread dump, never runs on the fast schedule); it stops while events
 * flow; and it fails the way a poll fails.
 */
class DetectionSignalPollTest {
  private static final Duration FAST = Duration.ofMillis(50);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final SignalPoller signals = new SignalPoller();
  private final FullPollOnly fullOnly = new FullPollOnly();
  private final AtomicBoolean noEventSource = new AtomicBoolean(true);
  private TargetSession session;

  @AfterEach
  void close() {
    if (session != null) {
      session.close();
    }
  }

  private TargetSession start(Duration signalPollInterval) {
    session =
        new TargetSession(
            "jdk11",
            new InProcessConnector(ManagementFactory.getPlatformMBeanServer()),
            Duration.ofHours(1),
            Duration.ofSeconds(5),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), () -> 0.5),
            registry,
            Tags.of("target", "jdk11"),
            Clock.systemUTC(),
            new PollWatchdog());
    session.addPoller(signals);
    session.addPoller(fullOnly);
    session.pollDetectionSignals(signalPollInterval, noEventSource::get);
    session.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> session.status().up());
    return session;
  }

  @Test
  void detectionSignalsAreReadBetweenFullPollsOnTheSessionThreadOnly() {
    start(FAST);

    await().atMost(Duration.ofSeconds(10)).until(() -> signals.fastPolls.get() >= 10);
    // One full poll, at connect; the next one is an hour away.
    assertThat(signals.polls.get()).isEqualTo(1);
    assertThat(fullOnly.polls.get()).as("the fast schedule never runs a full poll").isEqualTo(1);
    assertThat(signals.thread.get()).isEqualTo("target-jdk11");
    assertThat(session.detectionSignalInterval()).isEqualTo(FAST);
    assertThat(registry.get("jvm.sentinel.signal.poll.duration").timer().count())
        .isGreaterThanOrEqualTo(10);
  }

  @Test
  void theFastPollPausesWhileTheTargetHasAnEventSource() {
    start(FAST);
    await().atMost(Duration.ofSeconds(10)).until(() -> signals.fastPolls.get() >= 3);

    noEventSource.set(false);
    int seen = signals.fastPolls.get();
    // Awaitility's during: no fast poll for a stretch of several fast intervals.
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> signals.fastPolls.get() <= seen + 1);
    int paused = signals.fastPolls.get();

    noEventSource.set(true);
    await().atMost(Duration.ofSeconds(10)).until(() -> signals.fastPolls.get() >= paused + 3);
  }

  @Test
  void zeroTurnsTheFastPollOff() {
    start(Duration.ZERO);

    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> signals.fastPolls.get() == 0);
    assertThat(session.detectionSignalInterval()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aFastPollNotShorterThanThePollIntervalAddsNothing() {
    start(Duration.ofHours(2));

    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(5))
        .until(() -> signals.fastPolls.get() == 0);
    assertThat(session.detectionSignalInterval()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aBrokenConnectionInTheFastPollIsALostTarget() {
    start(FAST);
    int attempts = (int) session.status().connectAttempts();

    signals.failNext.set(new IOException("Connection reset"));

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(session.status().connectAttempts()).isGreaterThan(attempts);
              assertThat(session.status().up()).isTrue();
            });
    assertThat(signals.disconnects.get()).isEqualTo(1);
    assertThat(
            registry
                .get("jvm.sentinel.connection.failures")
                .tag("reason", "lost")
                .counter()
                .count())
        .isEqualTo(1);
  }

  /** A poller with nothing to read on the fast schedule (as the thread-dump pollers): counts. */
  private static class FullPollOnly implements JmxPoller {
    final AtomicInteger polls = new AtomicInteger();
    final AtomicInteger disconnects = new AtomicInteger();

    @Override
    public String name() {
      return getClass().getSimpleName();
    }

    @Override
    public void poll(MBeanServerConnection mbeans) {
      polls.incrementAndGet();
    }

    @Override
    public void disconnected() {
      disconnects.incrementAndGet();
    }

    @Override
    public void bindTo(MeterRegistry registry) {}
  }

  /** A poller with detection signals: counts the fast polls, and fails one when told to. */
  private static final class SignalPoller extends FullPollOnly {
    final AtomicInteger fastPolls = new AtomicInteger();
    final AtomicReference<String> thread = new AtomicReference<>();
    final AtomicReference<IOException> failNext = new AtomicReference<>();

    @Override
    public void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException {
      thread.set(Thread.currentThread().getName());
      IOException failure = failNext.getAndSet(null);
      if (failure != null) {
        throw failure;
      }
      fastPolls.incrementAndGet();
    }
  }
}
