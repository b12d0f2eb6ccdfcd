package io.jvmsentinel.collectors.jmx;

import static io.jvmsentinel.collectors.jmx.GcNotifications.notification;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jmx.GcNotifications.Pool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.NotificationBroadcasterSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Collections that ended while the connection was down are never notified (a new connection only
 * hears of collections ending after it subscribed): measured live, a 20 s run of full GCs that
 * timed out the polls reached the daemon as no pause at all. Their time is recovered from the
 * collector's totals at the first poll after the reconnect, once, and only for the same process.
 */
class GcPollerUnnotifiedTest {
  private static final String SERIAL_OLD = "MarkSweepCompact";
  private static final JvmIdentity PROCESS = identity(4242, 1_700_000_000_000L);

  private final MBeanServer target = MBeanServerFactory.newMBeanServer();
  private final Collector serialOld = new Collector();
  private final AtomicReference<JvmIdentity> connectedTo = new AtomicReference<>(PROCESS);
  private final AtomicLong nanos = new AtomicLong(1);
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final GcPoller poller =
      new GcPoller(Tags.of("target", "t"), connectedTo::get, nanos::get);

  /** The attributes of a {@code java.lang:type=GarbageCollector} the poller reads. */
  public interface CollectorMXBean {
    long getCollectionCount();

    long getCollectionTime();
  }

  /** A collector whose totals the test sets; it can be subscribed to, as a real one. */
  public static final class Collector extends NotificationBroadcasterSupport
      implements CollectorMXBean {
    volatile long count;
    volatile long millis;

    @Override
    public long getCollectionCount() {
      return count;
    }

    @Override
    public long getCollectionTime() {
      return millis;
    }
  }

  @BeforeEach
  void connect() throws Exception {
    register(SERIAL_OLD, serialOld);
    poller.bindTo(registry);
    poller.connected(target);
    totals(5, 500);
    poller.poll(target);
  }

  @Test
  void collectionsEndingWhileDisconnectedAreRecoveredAtTheFirstPollAfter() throws Exception {
    poller.record(full(6, 100));
    totals(6, 600);
    secondsPass(1);
    poller.poll(target);

    poller.record(full(7, 40));
    // A poll times out in the freeze: down; three collections of 1 s end meanwhile.
    poller.disconnected();
    poller.connected(target);
    totals(10, 600 + 40 + 3_000);
    secondsPass(20);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isEqualTo(3.14);
    assertThat(poller.unnotifiedPauseSeconds()).isEqualTo(3.0);
    assertThat(missed()).isEqualTo(3);

    poller.record(full(10, 1_000)); // in flight at that poll: counted already
    poller.record(full(11, 50));
    assertThat(poller.pauseSeconds()).isEqualTo(3.19);
    assertThat(registry.get("jvm.gc.pause").tag("gc", SERIAL_OLD).timer().count())
        .as("the metric still has every pause notified")
        .isEqualTo(4);
  }

  @Test
  void notificationsLostOnALiveConnectionAreRecoveredAtTheNextPoll() throws Exception {
    poller.record(full(6, 100));
    poller.record(full(9, 100)); // 7 and 8 lost (the connector dropped them)
    totals(9, 500 + 100 + 2_000 + 100);
    secondsPass(10);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isEqualTo(2.2);
    assertThat(poller.unnotifiedPauseSeconds()).isEqualTo(2.0);
    assertThat(missed()).isEqualTo(2);
  }

  @Test
  void withoutAReconnectNothingIsRecoveredAndNoPauseCountsTwice() throws Exception {
    totals(8, 500 + 3 * 200); // the poll reads before the three notifications arrive
    secondsPass(10);
    poller.poll(target);
    poller.record(full(6, 200));
    poller.record(full(7, 200));
    poller.record(full(8, 200));

    assertThat(poller.pauseSeconds()).isEqualTo(0.6);
    assertThat(poller.unnotifiedPauseSeconds()).isZero();
    assertThat(missed()).isZero();
  }

  @Test
  void everyCollectionNotifiedAcrossAReconnectLeavesNothingMissed() throws Exception {
    poller.record(full(6, 301));
    poller.disconnected();
    poller.connected(target);
    poller.record(full(7, 299));
    totals(7, 500 + 603); // CollectionTime rounds differently from the notified durations
    secondsPass(10);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isEqualTo(0.6);
    assertThat(poller.unnotifiedPauseSeconds()).isZero();
  }

  @Test
  void aRestartedTargetIsANewProcessWhoseTotalsAreNotTheOldOnes() throws Exception {
    poller.disconnected();
    connectedTo.set(identity(4343, PROCESS.startTimeMillis() + 60_000));
    poller.connected(target);
    totals(40, 9_000); // the new JVM's own start-up collections
    secondsPass(60);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isZero();
    assertThat(missed()).isZero();
  }

  @Test
  void anUnknownIdentityRecoversNothing() throws Exception {
    poller.disconnected();
    connectedTo.set(null);
    poller.connected(target);
    totals(9, 4_500);
    secondsPass(10);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isZero();
  }

  @Test
  void aTargetCannotClaimMorePauseThanTheTimeBetweenThePolls() throws Exception {
    poller.disconnected();
    poller.connected(target);
    totals(6, 500 + 3_600_000); // an hour of GC in 20 s
    secondsPass(20);
    poller.poll(target);

    assertThat(poller.pauseSeconds()).isEqualTo(20.0);
  }

  @Test
  void concurrentCycleBeansAndCmsAreNotPauseTime() {
    assertThat(GcPoller.totalsArePauses("ZGC Cycles")).isFalse();
    assertThat(GcPoller.totalsArePauses("ZGC Major Cycles")).isFalse();
    assertThat(GcPoller.totalsArePauses("Shenandoah Cycles")).isFalse();
    assertThat(GcPoller.totalsArePauses("ConcurrentMarkSweep")).isFalse();
    for (String gc :
        List.of(
            "G1 Young Generation",
            "G1 Old Generation",
            "G1 Concurrent GC",
            "ZGC Pauses",
            "Shenandoah Pauses",
            "PS MarkSweep",
            SERIAL_OLD)) {
      assertThat(GcPoller.totalsArePauses(gc)).as(gc).isTrue();
    }
  }

  private void register(String gc, Collector collector) throws Exception {
    target.registerMBean(
        collector, ObjectNames.parse("java.lang:type=GarbageCollector,name=" + gc));
  }

  private void totals(long count, long millis) {
    serialOld.count = count;
    serialOld.millis = millis;
  }

  private void secondsPass(long seconds) {
    nanos.addAndGet(seconds * 1_000_000_000L);
  }

  private double missed() {
    return registry.get("jvm.sentinel.gc.notifications.missed").counter().count();
  }

  private static javax.management.Notification full(long id, long millis) throws Exception {
    return notification(
        SERIAL_OLD,
        "end of major GC",
        "System.gc()",
        id,
        millis,
        new Pool("Tenured Gen", 1_500, 1_500, 4_000));
  }

  private static JvmIdentity identity(long pid, long startTime) {
    return new JvmIdentity(
        "OpenJDK 64-Bit Server VM",
        "vendor",
        "17",
        "17",
        "OpenJDK",
        17,
        pid,
        startTime,
        List.of(),
        Map.of());
  }
}
