package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Shutdown closes every target at once under one deadline, however many of them hang. */
class ParallelCloseTest {
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseHungTargets() {
    release.countDown();
  }

  @Test
  void closesAllAtTheSameTime() {
    int count = 5;
    // Each close waits for all the others to be closing too: done only if they run in parallel.
    CyclicBarrier allClosing = new CyclicBarrier(count);
    AtomicInteger closed = new AtomicInteger();
    List<AutoCloseable> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(
          () -> {
            allClosing.await(5, TimeUnit.SECONDS);
            closed.incrementAndGet();
          });
    }

    List<String> late = ParallelClose.closeAll(items, Object::toString, Duration.ofSeconds(10));

    assertThat(late).isEmpty();
    assertThat(closed).hasValue(count);
  }

  @Test
  void sessionsOfHungTargetsCloseWithinOneDeadline() {
    List<TargetSession> sessions = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      TargetSession session = hungSession("hung-" + i);
      session.start();
      sessions.add(session);
    }
    Duration deadline = Duration.ofMillis(1500);

    long started = System.nanoTime();
    List<String> late = ParallelClose.closeAll(sessions, TargetSession::name, deadline);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    // Each session waits 5 s for its hung thread: one after another this took 20 s.
    assertThat(late).containsExactlyInAnyOrder("hung-0", "hung-1", "hung-2", "hung-3");
    assertThat(tookMillis).isLessThan(deadline.toMillis() + 1000);
  }

  /** A session whose connect blocks until the test ends, like a target that accepts and hangs. */
  private TargetSession hungSession(String name) {
    Connector hangs =
        new Connector() {
          @Override
          public JMXConnector connect() {
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("released");
          }

          @Override
          public String describe() {
            return "hung test target";
          }
        };
    return new TargetSession(
        name,
        hangs,
        Duration.ofSeconds(10),
        Duration.ofSeconds(2),
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), () -> 0.5),
        new SimpleMeterRegistry(),
        Tags.of("target", name),
        Clock.systemUTC(),
        new PollWatchdog());
  }
}
