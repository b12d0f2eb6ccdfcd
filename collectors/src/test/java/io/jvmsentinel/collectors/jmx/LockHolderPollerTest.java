package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lock holder dump against this JVM's own MBeans, with real threads blocked on a monitor whose
 * holder sleeps while holding it.
 */
class LockHolderPollerTest {
  private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
  private final ThreadPoller threads = new ThreadPoller(Tags.empty());
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final LockHolderPoller holders = new LockHolderPoller(threads::states, now::get);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<Thread> started = new ArrayList<>();

  /** The monitor: its holder waits for the test while holding it. */
  static final class SlowCloseLock {
    synchronized void closeSlowly(CountDownLatch release) throws InterruptedException {
      release.await();
    }

    synchronized void lookup() {}
  }

  @AfterEach
  void releaseTheHolder() throws InterruptedException {
    release.countDown();
    for (Thread thread : started) {
      thread.join(5_000);
    }
  }

  @Test
  void namesTheMonitorItsHolderAndWhereTheHolderLockedIt() throws Exception {
    threads.bindTo(new SimpleMeterRegistry());
    SlowCloseLock lock = new SlowCloseLock();
    start("holder", () -> lock.closeSlowly(release));
    await().until(() -> threadState("holder") == Thread.State.WAITING);
    for (int i = 0; i < 3; i++) {
      start("waiter-" + i, lock::lookup);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              threads.poll(platform);
              return threads.states().count(Thread.State.BLOCKED) >= 3;
            });

    holders.poll(platform);
    LockHolders dump = holders.drain();

    LockHolders.Monitor monitor = dump.monitors().get(0);
    assertThat(monitor.className()).isEqualTo(SlowCloseLock.class.getName());
    assertThat(monitor.blockedThreads()).isEqualTo(3);
    assertThat(monitor.blockedSites()).containsExactly(SlowCloseLock.class.getName() + ".lookup");
    assertThat(monitor.holder()).isEqualTo("holder");
    assertThat(monitor.enteredAt()).isEqualTo(SlowCloseLock.class.getName() + ".closeSlowly");
    assertThat(monitor.holderStack()).anyMatch(f -> f.startsWith(CountDownLatch.class.getName()));
    assertThat(holders.drain()).as("each dump is taken once").isNull();
  }

  @Test
  void dumpsOnlyWhileThreadsAreBlockedAndAtMostOncePerInterval() throws Exception {
    threads.poll(platform);
    holders.poll(platform);
    assertThat(holders.drain()).as("nothing blocked, no dump").isNull();

    SlowCloseLock lock = new SlowCloseLock();
    start("holder", () -> lock.closeSlowly(release));
    await().until(() -> threadState("holder") == Thread.State.WAITING);
    start("waiter-a", lock::lookup);
    start("waiter-b", lock::lookup);
    await()
        .until(
            () -> {
              threads.poll(platform);
              return threads.states().count(Thread.State.BLOCKED) >= 2;
            });
    holders.poll(platform);
    assertThat(holders.drain()).isNotNull();
    now.addAndGet(LockHolderPoller.MIN_INTERVAL_MILLIS - 1);
    holders.poll(platform);
    assertThat(holders.drain()).isNull();
    now.addAndGet(1);
    holders.poll(platform);
    assertThat(holders.drain()).isNotNull();
  }

  @Test
  void blockedTotalsAreReadWithTheStatesAndTimeOnlyWhenMonitoringIsOn() throws Exception {
    threads.poll(platform);
    boolean monitoring = ManagementFactory.getThreadMXBean().isThreadContentionMonitoringEnabled();
    assertThat(threads.states().blockedMillis() >= 0).isEqualTo(monitoring);
    assertThat(threads.states().blockedCount()).isGreaterThanOrEqualTo(0);
  }

  private interface Body {
    void run() throws InterruptedException;
  }

  private void start(String name, Body body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            name);
    thread.setDaemon(true);
    started.add(thread);
    thread.start();
  }

  private Thread.State threadState(String name) {
    return started.stream()
        .filter(t -> t.getName().equals(name))
        .findFirst()
        .orElseThrow()
        .getState();
  }
}
