package io.jvmsentinel.collectors.jfr.locks;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.EventStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replays the lock contention fixture (src/test/resources/jfr/locks/README.md). */
class ContentionHandlerTest {
  private static final String FIXTURE = "io.jvmsentinel.collectors.jfr.locks.fixtures.";
  private static final String CACHE = FIXTURE + "LockContentionFixture$SlowCloseCache";
  private static final String REENTRANT = "java.util.concurrent.locks.ReentrantLock$NonfairSync";

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ContentionTable table = new ContentionTable();
  private final List<ContentionHandler> handlers =
      List.of(
          new ContentionHandler(Tags.empty(), ContentionKind.MONITOR_ENTER, table),
          new ContentionHandler(Tags.empty(), ContentionKind.THREAD_PARK, table),
          new ContentionHandler(Tags.empty(), ContentionKind.MONITOR_WAIT, table));

  @BeforeEach
  void replay() throws IOException, URISyntaxException {
    handlers.forEach(h -> h.bindTo(registry));
    Path path = Path.of(getClass().getResource("/jfr/locks/lock-contention-jdk17.jfr").toURI());
    try (EventStream stream = EventStream.openFile(path)) {
      stream.setOrdered(true);
      stream.onEvent(
          event ->
              handlers.stream()
                  .filter(h -> h.eventName().equals(event.getEventType().getName()))
                  .forEach(h -> h.accept(event)));
      stream.start();
    }
  }

  @Test
  void theSlowCloseMonitorIsTheMostContendedLockWithItsBlockedSitesAndOwners() {
    LockContention interval = table.drain(5);
    LockContention.Lock top = interval.locks().get(0);
    assertThat(top.kind()).isEqualTo("monitor-enter");
    assertThat(top.className()).isEqualTo(CACHE);
    assertThat(top.threads()).isEqualTo(4);
    assertThat(top.events()).isGreaterThan(20);
    assertThat(top.blockedSites().get(0).stack().get(0)).startsWith(CACHE + ".");
    assertThat(top.blockedSites())
        .extracting(LockContention.Site::site)
        .contains(CACHE + ".lookup");
    assertThat(top.owners()).extracting(LockContention.Site::site).contains("cache-worker-#");
    assertThat(interval.blockedNanos()).isGreaterThanOrEqualTo(top.blockedNanos());
  }

  @Test
  void aParkOnAReentrantLockIsContentionNamedByTheCallerOfLock() {
    LockContention.Lock park =
        table.drain(5).locks().stream()
            .filter(l -> l.className().equals(REENTRANT))
            .findFirst()
            .orElseThrow();
    assertThat(park.kind()).isEqualTo("park");
    assertThat(park.blockedSites().get(0).site())
        .isEqualTo(FIXTURE + "LockContentionFixture.holdLock");
    assertThat(park.owners()).as("JFR names no owner for parks").isEmpty();
  }

  @Test
  void anIdleQueueWaitIsExportedButIsNotContention() {
    assertThat(table.drain(32).locks())
        .extracting(LockContention.Lock::className)
        .noneMatch(c -> c.endsWith("$ConditionObject"));
    double parkedOnConditions =
        registry.find("jvm.threads.contention").tag("kind", "park").timers().stream()
            .filter(t -> t.getId().getTag("class").endsWith("$ConditionObject"))
            .mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS))
            .sum();
    assertThat(parkedOnConditions).isGreaterThanOrEqualTo(250);
  }

  @Test
  void theTimerCountsEveryRecordedWaitByKindAndClass() {
    var enters =
        registry
            .get("jvm.threads.contention")
            .tag("kind", "monitor-enter")
            .tag("class", CACHE)
            .timer();
    assertThat(enters.count()).isGreaterThan(20);
    assertThat(enters.max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(10);
    assertThat(registry.get("jvm.threads.contention").tag("class", "other").timers()).hasSize(3);
  }

  @Test
  void drainingStartsANewInterval() {
    assertThat(table.drain(5).locks()).isNotEmpty();
    assertThat(table.drain(5)).isEqualTo(LockContention.EMPTY);
  }

  @Test
  void parksCountAsContentionOnlyOnLocks() {
    assertThat(ContentionKind.THREAD_PARK.contended(REENTRANT)).isTrue();
    assertThat(ContentionKind.THREAD_PARK.contended("java.util.concurrent.Semaphore$NonfairSync"))
        .isTrue();
    assertThat(
            ContentionKind.THREAD_PARK.contended(
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject"))
        .isFalse();
    assertThat(ContentionKind.THREAD_PARK.contended("java.util.concurrent.CountDownLatch$Sync"))
        .isFalse();
    assertThat(ContentionKind.THREAD_PARK.contended(null)).isFalse();
    assertThat(ContentionKind.MONITOR_WAIT.contended(CACHE)).isFalse();
    assertThat(ContentionKind.MONITOR_ENTER.contended(CACHE)).isTrue();
  }
}
