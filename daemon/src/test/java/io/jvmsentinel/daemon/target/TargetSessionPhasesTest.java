package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.collectors.jmx.JmxPoller;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.testing.ManualScheduler;
import io.jvmsentinel.daemon.testing.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServerConnection;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import javax.management.remote.JMXConnectionNotification;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The session's state machine ({@link ConnectionPhase}) driven by hand: the session thread and the
 * watchdog thread are {@link ManualScheduler}s on one {@link MutableClock}, so backoff delays, poll
 * schedules and the watchdog's limit are reached by moving the clock, never by sleeping. The target
 * is this JVM's MBean server behind a scripted connector; no process is forked.
 */
class TargetSessionPhasesTest {
  private static final Duration POLL_INTERVAL = Duration.ofSeconds(10);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration FIRST_DELAY = Duration.ofSeconds(1);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T00:00:00Z"));
  private final ManualScheduler sessionThread = new ManualScheduler(clock);
  private final ManualScheduler watchdogThread = new ManualScheduler(clock);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ScriptedConnector connector = new ScriptedConnector();
  private final ScriptedPoller poller = new ScriptedPoller();
  private final List<String> told = new ArrayList<>();
  private final TargetSession session =
      new TargetSession(
          "scripted",
          connector,
          POLL_INTERVAL,
          CALL_TIMEOUT,
          // Random 1.0: each delay is its ceiling, 1 s doubling up to 8 s.
          new Backoff(FIRST_DELAY, Duration.ofSeconds(8), () -> 1.0),
          registry,
          Tags.of("target", "scripted"),
          clock,
          new PollWatchdog(() -> watchdogThread),
          sessionThread);

  TargetSessionPhasesTest() {
    session.addPoller(poller);
    session.addListener(
        new TargetSession.ConnectionListener() {
          @Override
          public void connected(JMXConnector jmx, MBeanServerConnection mbeans) {
            told.add("connected");
          }

          @Override
          public void disconnected() {
            told.add("disconnected");
          }
        });
  }

  @AfterEach
  void close() {
    session.close();
  }

  @Test
  void aTargetThatDoesNotAnswerIsTriedAgainEveryFewSecondsNotAfterAGrownBackoff() {
    connector.timeOutNext(5);

    session.start();
    sessionThread.runDue();
    assertThat(session.status().lastError()).contains("Read timed out");
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      delays.add(sessionThread.nextDelay());
      sessionThread.advance(sessionThread.nextDelay());
    }

    // A refused connect backs off 1, 2, 4, 8, 8 s here; a hung or frozen target is checked again
    // at least every 2 s, so it is seen back within seconds of answering.
    assertThat(delays)
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2));
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(failures("timeout")).isEqualTo(5);
  }

  @Test
  void refusedConnectsAreTriedAgainAtLeastEveryTenSeconds() {
    assertThat(ConnectFailure.REFUSED.nextDelay(Duration.ofSeconds(30)))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(ConnectFailure.REFUSED.nextDelay(Duration.ofSeconds(4)))
        .isEqualTo(Duration.ofSeconds(4));
    assertThat(ConnectFailure.AUTH.nextDelay(Duration.ofSeconds(30)))
        .as("wrong credentials are backed off in full")
        .isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aFailingConnectBacksOffWithGrowingDelaysAndThenConnects() {
    connector.refuseNext(3);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.NEW);

    session.start();
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.BACKING_OFF);
    assertThat(session.status().up()).isFalse();
    assertThat(session.status().lastError()).contains("Connection refused");
    assertThat(sessionThread.nextDelay()).isEqualTo(Duration.ofSeconds(1));

    sessionThread.advance(Duration.ofMillis(999));
    assertThat(connector.attempts.get()).as("not before the delay").isEqualTo(1);
    sessionThread.advance(Duration.ofMillis(1));
    assertThat(connector.attempts.get()).isEqualTo(2);
    assertThat(sessionThread.nextDelay()).isEqualTo(Duration.ofSeconds(2));
    sessionThread.advance(Duration.ofSeconds(2));
    assertThat(sessionThread.nextDelay()).isEqualTo(Duration.ofSeconds(4));
    assertThat(told).isEmpty();

    sessionThread.advance(Duration.ofSeconds(4));
    assertThat(connector.attempts.get()).isEqualTo(4);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(session.status().up()).isTrue();
    assertThat(session.status().since()).isEqualTo(clock.instant());
    assertThat(told).containsExactly("connected");
    assertThat(poller.polls.get()).as("polled once before it says up").isEqualTo(1);
    assertThat(counter("jvm.sentinel.connection.attempts")).isEqualTo(4);
    assertThat(failures("refused")).isEqualTo(3);

    sessionThread.advance(POLL_INTERVAL);
    assertThat(poller.polls.get()).as("then every poll interval").isEqualTo(2);
  }

  @Test
  void aStalledPollTripsTheWatchdogAtItsLimitAndTheSessionReconnects() {
    connectAtOnce();
    List<TargetStatus> duringStall = new ArrayList<>();
    List<ConnectionPhase> phaseDuringStall = new ArrayList<>();
    poller.onPoll =
        () -> {
          // The watchdog's thread runs while this poll hangs on the target.
          watchdogThread.advance(CALL_TIMEOUT.minusMillis(1));
          duringStall.add(session.status());
          watchdogThread.advance(Duration.ofMillis(1));
          duringStall.add(session.status());
          phaseDuringStall.add(session.phase());
          // A hung target's call fails at last, after the RMI timeouts.
          throw new IOException("Read timed out");
        };

    sessionThread.advance(POLL_INTERVAL);
    assertThat(duringStall).extracting(TargetStatus::up).containsExactly(true, false);
    assertThat(duringStall.get(1).lastError()).contains("call timeout (2000 ms)");
    assertThat(phaseDuringStall).as("overdue is not lost").containsExactly(ConnectionPhase.POLLING);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.BACKING_OFF);
    assertThat(session.status().up()).isFalse();
    assertThat(session.status().since())
        .as("down since the poll overran")
        .isEqualTo(Instant.parse("2026-11-26T00:00:12Z"));
    assertThat(told).containsExactly("connected", "disconnected");
    assertThat(failures("lost")).isEqualTo(1);
    assertThat(sessionThread.nextDelay()).as("the backoff starts over").isEqualTo(FIRST_DELAY);

    poller.onPoll = () -> {};
    sessionThread.advance(FIRST_DELAY);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(session.status().up()).isTrue();
    assertThat(connector.attempts.get()).isEqualTo(2);
    assertThat(told).containsExactly("connected", "disconnected", "connected");
    await().atMost(Duration.ofSeconds(5)).until(() -> connector.opened.get(0).closed.get() == 1);
  }

  @Test
  void aPollThatAnswersInTimeLeavesNoAlarmAndASlowOneComesBackUp() {
    connectAtOnce();
    assertThat(watchdogThread.queued()).as("the first poll's alarm was cancelled").isZero();

    poller.onPoll = () -> watchdogThread.advance(CALL_TIMEOUT.plusSeconds(1));
    sessionThread.advance(POLL_INTERVAL);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(session.status().up()).as("slow, not dead: up again once it answered").isTrue();
    assertThat(told).containsExactly("connected");
  }

  @Test
  void aLossNoticeReconnectsAfterTheBackoffAndALateNoticeOfAnOldConnectionIsIgnored() {
    connectAtOnce();
    ScriptedJmxConnector first = connector.opened.get(0);

    first.notifyLoss(JMXConnectionNotification.FAILED);
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.BACKING_OFF);
    assertThat(session.status().lastError())
        .isEqualTo("JMX connection jmx.remote.connection.failed");
    sessionThread.advance(FIRST_DELAY);
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);

    first.notifyLoss(JMXConnectionNotification.CLOSED);
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(session.status().up()).isTrue();
    assertThat(told).containsExactly("connected", "disconnected", "connected");
  }

  @Test
  void aFirstPollThatLosesTheConnectionNeverReadsUp() {
    poller.onPoll =
        () -> {
          throw new IOException("Connection reset");
        };
    session.start();
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.BACKING_OFF);
    assertThat(session.status().up()).isFalse();
    // Listeners hear of a connection only once it is up; of its drop, as before, always (harmless).
    assertThat(told).containsExactly("disconnected");
  }

  @Test
  void closingANewSessionStopsIt() {
    session.close();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.STOPPED);
    assertThat(connector.attempts.get()).isZero();
  }

  @Test
  void closingWhileAConnectIsQueuedStopsOnceItIsDoneAndClosesTheConnection() {
    session.start();
    session.close();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.STOPPED);
    assertThat(told).containsExactly("connected", "disconnected");
    await().atMost(Duration.ofSeconds(5)).until(() -> connector.opened.get(0).closed.get() == 1);
  }

  @Test
  void closingWhileBackingOffCancelsTheReconnect() {
    connector.refuseNext(1);
    session.start();
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.BACKING_OFF);

    session.close();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.STOPPED);
    assertThat(sessionThread.queued()).isZero();
    assertThat(connector.attempts.get()).isEqualTo(1);
  }

  @Test
  void closingWhilePollingStopsThePollsAndClosesTheConnection() {
    connectAtOnce();
    session.close();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.STOPPED);
    assertThat(told).containsExactly("connected", "disconnected");
    assertThat(poller.disconnected.get()).isEqualTo(1);
    assertThat(session.status().up())
        .as("the status keeps its last word; the session is gone")
        .isTrue();
    await().atMost(Duration.ofSeconds(5)).until(() -> connector.opened.get(0).closed.get() == 1);
    clock.advance(Duration.ofMinutes(1));
    assertThat(poller.polls.get()).as("no poll after the close").isEqualTo(1);
  }

  private void connectAtOnce() {
    session.start();
    sessionThread.runDue();
    assertThat(session.phase()).isEqualTo(ConnectionPhase.POLLING);
    assertThat(session.status().up()).isTrue();
  }

  private double counter(String name) {
    return registry.get(name).counter().count();
  }

  private double failures(String reason) {
    return registry.get("jvm.sentinel.connection.failures").tag("reason", reason).counter().count();
  }

  /** Refuses as many connects as it is told, then connects to this JVM's MBean server. */
  private static final class ScriptedConnector implements Connector {
    final AtomicInteger attempts = new AtomicInteger();
    final List<ScriptedJmxConnector> opened = new ArrayList<>();
    private int refusals;
    private int timeouts;

    void refuseNext(int count) {
      refusals = count;
    }

    void timeOutNext(int count) {
      timeouts = count;
    }

    @Override
    public JMXConnector connect() throws IOException {
      attempts.incrementAndGet();
      if (refusals > 0) {
        refusals--;
        throw new ConnectException("Connection refused");
      }
      if (timeouts > 0) {
        timeouts--;
        throw new java.net.SocketTimeoutException("Read timed out");
      }
      ScriptedJmxConnector connection = new ScriptedJmxConnector();
      opened.add(connection);
      return connection;
    }

    @Override
    public String describe() {
      return "scripted test target";
    }
  }

  /** A connection to this JVM whose loss notice the test sends. */
  private static final class ScriptedJmxConnector extends LocalJmxConnector {
    final AtomicInteger closed = new AtomicInteger();
    private NotificationListener listener;

    ScriptedJmxConnector() {
      super(ManagementFactory.getPlatformMBeanServer());
    }

    void notifyLoss(String type) {
      listener.handleNotification(
          new JMXConnectionNotification(type, this, "scripted", 1, "test", null), null);
    }

    @Override
    public void close() {
      closed.incrementAndGet();
    }

    @Override
    public void addConnectionNotificationListener(
        NotificationListener listener, NotificationFilter filter, Object handback) {
      this.listener = listener;
    }
  }

  /** A poller whose poll does what the test says. */
  private static final class ScriptedPoller implements JmxPoller {
    interface PollAction {
      void run() throws IOException;
    }

    final AtomicInteger polls = new AtomicInteger();
    final AtomicInteger disconnected = new AtomicInteger();
    volatile PollAction onPoll = () -> {};

    @Override
    public String name() {
      return "scripted";
    }

    @Override
    public void poll(MBeanServerConnection mbeans) throws IOException {
      polls.incrementAndGet();
      onPoll.run();
    }

    @Override
    public void disconnected() {
      disconnected.incrementAndGet();
    }

    @Override
    public void bindTo(MeterRegistry registry) {}
  }
}
