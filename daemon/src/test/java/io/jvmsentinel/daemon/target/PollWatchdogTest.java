package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServerConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The poll watchdog only raises a flag: a poll that overruns the call timeout shows the target down
 * at once (status and gauge), but nothing calls into a poller while its poll runs; the session
 * thread itself brings the target back when the slow poll returns.
 */
class PollWatchdogTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final HangingPoller hanging = new HangingPoller();
  private TargetSession session;

  @AfterEach
  void close() {
    hanging.release.countDown();
    if (session != null) {
      session.close();
    }
  }

  @Test
  void anOverduePollReadsDownWithoutTheWatchdogTouchingThePollers() {
    session =
        new TargetSession(
            "slow",
            new InProcessConnector(ManagementFactory.getPlatformMBeanServer()),
            Duration.ofMillis(50),
            Duration.ofMillis(300),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), () -> 0.5),
            registry,
            Tags.of("target", "slow"),
            Clock.systemUTC(),
            new PollWatchdog());
    session.addPoller(hanging);
    session.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> session.status().up());
    assertThat(up()).isEqualTo(1);

    hanging.hang.set(true);
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> {
              TargetStatus status = session.status();
              assertThat(status.up()).isFalse();
              assertThat(status.lastError()).contains("call timeout (300 ms)");
              assertThat(up()).isZero();
            });
    assertThat(hanging.inPoll.get()).as("the poll is still running").isTrue();

    hanging.hang.set(false);
    hanging.release.countDown();
    await().atMost(Duration.ofSeconds(5)).until(() -> session.status().up());
    assertThat(up()).isEqualTo(1);
    assertThat(session.status().lastError()).isNull();
    assertThat(hanging.disconnectedDuringPoll.get())
        .as("disconnected() called while a poll ran")
        .isZero();
    // Slow is not lost: the connection stayed, so nobody cleared the pollers.
    assertThat(hanging.disconnected.get()).isZero();
  }

  @Test
  void oneWatchdogServesEverySessionItIsGivenAndItsThreadEndsWithTheLast() {
    PollWatchdog shared = new PollWatchdog();
    TargetSession first = unstarted("first", shared);
    TargetSession second = unstarted("second", shared);
    AtomicInteger fired = new AtomicInteger();
    shared.arm(Duration.ofMillis(10), fired::incrementAndGet);
    await().atMost(Duration.ofSeconds(5)).until(() -> fired.get() == 1);

    first.close();
    first.close();
    assertThat(shared.running()).as("the second session still uses it").isTrue();
    shared.arm(Duration.ofMillis(10), fired::incrementAndGet);
    await().atMost(Duration.ofSeconds(5)).until(() -> fired.get() == 2);

    second.close();
    assertThat(shared.running()).isFalse();
    TargetSession third = unstarted("third", shared);
    assertThat(shared.running()).as("a new session starts it again").isTrue();
    third.close();
  }

  private TargetSession unstarted(String name, PollWatchdog watchdog) {
    return new TargetSession(
        name,
        new InProcessConnector(ManagementFactory.getPlatformMBeanServer()),
        Duration.ofSeconds(10),
        Duration.ofSeconds(2),
        new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), () -> 0.5),
        registry,
        Tags.of("target", name),
        Clock.systemUTC(),
        watchdog);
  }

  private double up() {
    return registry.get("jvm.sentinel.target.up").gauge().value();
  }

  /** A poller whose poll blocks, when told to, until released; it records how it is called. */
  private static final class HangingPoller implements JmxPoller {
    final AtomicBoolean hang = new AtomicBoolean();
    final AtomicBoolean inPoll = new AtomicBoolean();
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger disconnected = new AtomicInteger();
    final AtomicInteger disconnectedDuringPoll = new AtomicInteger();

    @Override
    public String name() {
      return "hanging";
    }

    @Override
    public void poll(MBeanServerConnection mbeans) {
      inPoll.set(true);
      try {
        if (hang.get()) {
          release.await(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inPoll.set(false);
      }
    }

    @Override
    public void disconnected() {
      disconnected.incrementAndGet();
      if (inPoll.get()) {
        disconnectedDuringPoll.incrementAndGet();
      }
    }

    @Override
    public void bindTo(MeterRegistry registry) {}
  }
}
