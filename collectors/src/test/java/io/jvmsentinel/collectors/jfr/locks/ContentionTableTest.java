package io.jvmsentinel.collectors.jfr.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Waits recorded in the stream's stack sampling pauses (no stack) and in its windows. */
class ContentionTableTest {
  private static final String CACHE = "com.example.ConnectionCache";
  private static final StackFrame.Stack IN_PUT =
      new StackFrame.Stack(List.of(new StackFrame(CACHE, "put", 42)), false);

  private final ContentionTable table = new ContentionTable();

  private static BlockedEvent blocked(long millis, StackFrame.Stack stack) {
    return new BlockedEvent(
        ContentionKind.MONITOR_ENTER,
        CACHE,
        millis * 1_000_000,
        Instant.EPOCH,
        7,
        "worker-#",
        stack);
  }

  @Test
  void aWaitWithoutItsStackCountsForItsLockButNamesNoSite() {
    table.add(blocked(30, IN_PUT), true);
    table.add(blocked(50, StackFrame.Stack.NONE), false);

    LockContention.Lock lock = table.drain(1).locks().get(0);

    assertThat(lock.blockedNanos()).isEqualTo(80_000_000);
    assertThat(lock.events()).isEqualTo(2);
    assertThat(lock.owners()).extracting(LockContention.Site::nanos).containsExactly(80_000_000L);
    assertThat(lock.blockedSites())
        .extracting(LockContention.Site::site, LockContention.Site::nanos)
        .containsExactly(tuple(CACHE + ".put", 30_000_000L));
  }

  @Test
  void outsideSamplingAStacklessWaitIsAnUnknownSite() {
    table.add(blocked(50, StackFrame.Stack.NONE));

    assertThat(table.drain(1).locks().get(0).blockedSites())
        .extracting(LockContention.Site::site)
        .containsExactly(BlockedSite.UNKNOWN);
  }
}
