package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Evidence dumps of many targets run at most {@code storage.maxConcurrentDumps} at once. */
class DumpLimitTest {
  private static final int TARGETS = 10;
  private static final int LIMIT = 2;

  private final DumpLimit limit = new DumpLimit(LIMIT);
  private final List<EvidenceDumps> targets = new ArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostAtOnce = new AtomicInteger();

  @AfterEach
  void close() {
    release.countDown();
    targets.forEach(EvidenceDumps::close);
  }

  private String read(String name) throws IOException {
    int now = running.incrementAndGet();
    mostAtOnce.accumulateAndGet(now, Math::max);
    try {
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IOException("never released");
      }
      return name;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } finally {
      running.decrementAndGet();
    }
  }

  @Test
  void tenTargetsAlertingAtOnceReadTwoAtATimeAndAllFinish() throws Exception {
    List<CompletableFuture<String>> dumps = new ArrayList<>();
    for (int i = 0; i < TARGETS; i++) {
      String name = "target-" + i;
      EvidenceDumps perTarget =
          new EvidenceDumps(name, new SimpleMeterRegistry().counter("dropped"));
      targets.add(perTarget);
      // Each target's dump thread waits its turn, as TargetEvidence's read does.
      dumps.add(perTarget.submit(Path.of(name), () -> limit.run(() -> read(name))).orElseThrow());
    }

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> running.get() == LIMIT && limit.waiting() == TARGETS - LIMIT);
    assertThat(mostAtOnce).hasValue(LIMIT);

    release.countDown();
    for (int i = 0; i < TARGETS; i++) {
      assertThat(dumps.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("target-" + i);
    }
    assertThat(mostAtOnce).hasValue(LIMIT);
    assertThat(limit.waiting()).isZero();
  }

  @Test
  void aDumpThatFailsGivesItsTurnBack() throws Exception {
    DumpLimit one = new DumpLimit(1);
    assertThatThrownBy(
            () ->
                one.run(
                    () -> {
                      throw new IOException("the target went away");
                    }))
        .hasMessage("the target went away");
    assertThat(one.run(() -> "next")).isEqualTo("next");
  }

  @Test
  void aStoppingDaemonInterruptsAWaitingDump() throws Exception {
    DumpLimit one = new DumpLimit(1);
    CountDownLatch holding = new CountDownLatch(1);
    CompletableFuture<String> holder =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return one.run(
                    () -> {
                      holding.countDown();
                      return read("holder");
                    });
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> one.run(() -> "never"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("interrupted");
    assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
    release.countDown();
    assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("holder");
  }

  @Test
  void atLeastOneDumpAtATime() {
    assertThatThrownBy(() -> new DumpLimit(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
