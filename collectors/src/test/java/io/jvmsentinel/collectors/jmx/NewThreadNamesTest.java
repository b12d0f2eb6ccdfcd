package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class NewThreadNamesTest {
  private final NewThreadNames names = new NewThreadNames();

  @Test
  void theFirstReadOnlyLearnsTheThreadsAlreadyRunning() {
    names.seen(new long[] {1, 2, 3}, new String[] {"main", "pool-1-thread-1", "Reference Handler"});

    assertThat(names.drain()).isEmpty();
  }

  @Test
  void countsTheThreadsFirstSeenByNamePatternUntilDrained() {
    names.seen(new long[] {1, 2}, new String[] {"main", "pool-1-thread-1"});
    names.seen(
        new long[] {1, 2, 10, 11, 12},
        new String[] {"main", "pool-1-thread-1", "pool-7-thread-1", "pool-7-thread-2", null});
    names.seen(new long[] {1, 10, 13}, new String[] {"main", "pool-7-thread-1", "batch-worker-3"});

    assertThat(names.drain())
        .as("a thread that ended before it was read (null) is not seen; one seen twice counts once")
        .isEqualTo(Map.of("pool-#-thread-#", 2L, "batch-worker-#", 1L));
    assertThat(names.drain()).isEmpty();
  }

  @Test
  void threadsNamedByIdsOrUuidsAreOneKind() {
    names.seen(new long[0], new String[0]);
    names.seen(
        new long[] {1, 2, 3, 4, 5, 6},
        new String[] {
          "request-3f2a9c1e-4b7d-11ee-be56-0242ac120002",
          "request-9d0c55aa-01f3-4e2b-8c1d-7f00aa11bb22",
          "task-0x1f",
          "task-0xa2",
          "C2 CompilerThread0",
          "decoder-facade"
        });

    assertThat(names.drain())
        .as("a storm of uniquely named threads keeps one kind; words without digits stay")
        .isEqualTo(
            Map.of(
                "request-#-#-#-#-#", 2L,
                "task-#", 2L,
                "C# CompilerThread#", 1L,
                "decoder-facade", 1L));
  }

  @Test
  void aTargetsNamesAreBoundedInNumberAndMadeSafe() {
    names.seen(new long[0], new String[0]);
    int many = NewThreadNames.MAX_PATTERNS + 5;
    long[] ids = new long[many];
    String[] threads = new String[many];
    for (int i = 0; i < many; i++) {
      ids[i] = 100 + i;
      threads[i] = "worker-" + (char) ('a' + i) + "\u202e";
    }
    names.seen(ids, threads);

    Map<String, Long> drained = names.drain();
    assertThat(drained).hasSize(NewThreadNames.MAX_PATTERNS + 1).containsEntry("other", 5L);
    assertThat(drained.keySet()).allSatisfy(name -> assertThat(name).doesNotContain("\u202e"));
  }

  @Test
  void afterADisconnectTheNextReadLearnsTheIdsAgain() {
    names.seen(new long[] {1}, new String[] {"main"});
    names.clear();
    names.seen(new long[] {1, 50}, new String[] {"main", "pool-2-thread-1"});

    assertThat(names.drain()).isEmpty();
  }

  @Test
  void thePollerSeesAThreadStartedBetweenTwoReadsOfARealJvm() throws Exception {
    ThreadPoller poller = new ThreadPoller(Tags.of("target", "self"));
    var mbeans = ManagementFactory.getPlatformMBeanServer();
    poller.pollDetectionSignals(mbeans);
    poller.newThreads().drain();
    CountDownLatch done = new CountDownLatch(1);
    Thread started = new Thread(() -> awaitQuietly(done), "sentinel-test-thread-42");
    started.start();
    try {
      poller.pollDetectionSignals(mbeans);

      assertThat(poller.newThreads().drain()).containsEntry("sentinel-test-thread-#", 1L);
    } finally {
      done.countDown();
      started.join();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
