package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's queue is bounded: an alert storm while a dump hangs drops snapshots, counted. */
class EvidenceSnapshotsTest {
  @TempDir Path directory;

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger dumpsStarted = new AtomicInteger();
  private final AtomicInteger written = new AtomicInteger();

  /** A stream whose dump waits until released, then writes a small file. */
  private final EvidenceSnapshots.Source slowStream =
      new EvidenceSnapshots.Source() {
        @Override
        public boolean streaming() {
          return true;
        }

        @Override
        public void dump(Path file) throws IOException {
          dumpsStarted.incrementAndGet();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          Files.writeString(file, "jfr");
          written.incrementAndGet();
        }
      };

  @Test
  void dropsWhatDoesNotFitTheQueueAndCountsIt() {
    EvidenceSnapshots snapshots =
        new EvidenceSnapshots(directory, 1 << 20, Map.of("t", slowStream), registry);
    try {
      Instant at = Instant.parse("2026-11-25T05:00:00Z");
      assertThat(snapshots.take("t", "rule-0", at)).isPresent();
      await().atMost(Duration.ofSeconds(5)).until(() -> dumpsStarted.get() == 1);

      int requests = 1 + EvidenceSnapshots.QUEUE + 5;
      int accepted = 1;
      for (int i = 1; i < requests; i++) {
        Optional<String> path = snapshots.take("t", "rule-" + i, at);
        if (path.isPresent()) {
          accepted++;
        }
      }

      assertThat(accepted).isEqualTo(1 + EvidenceSnapshots.QUEUE);
      assertThat(registry.get("jvm.sentinel.snapshots.dropped").counter().count()).isEqualTo(5);

      release.countDown();
      int toWrite = accepted;
      await().atMost(Duration.ofSeconds(10)).until(() -> written.get() == toWrite);
      assertThat(directory.resolve("t-rule-0-20261125T050000Z.jfr")).exists();
    } finally {
      release.countDown();
      snapshots.close();
    }
  }
}
