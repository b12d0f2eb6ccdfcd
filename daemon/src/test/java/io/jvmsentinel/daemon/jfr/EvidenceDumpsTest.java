package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Evidence dumps run on their own bounded thread; what does not fit is dropped and counted. */
class EvidenceDumpsTest {
  private final Counter dropped = new SimpleMeterRegistry().counter("dropped");
  private final EvidenceDumps dumps = new EvidenceDumps("orders", dropped);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void close() {
    release.countDown();
    dumps.close();
  }

  private Path blockedDump(Path file) throws IOException {
    try {
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IOException("never released");
      }
      return file;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Test
  void aDumpThatHangsNeitherBlocksTheCallerNorTheNextTwoRequestsButTheFourthIsDropped()
      throws Exception {
    List<CompletableFuture<Path>> accepted = new ArrayList<>();
    for (int i = 0; i < EvidenceDumps.QUEUED + 1; i++) {
      Path file = Path.of("d" + i);
      Optional<CompletableFuture<Path>> dump = dumps.submit(file, () -> blockedDump(file));
      assertThat(dump).as("dump %d: one runs, two wait", i).isPresent();
      accepted.add(dump.get());
    }
    // The first dump went straight to the thread (the pool starts it with its first task).
    assertThat(dumps.submit(Path.of("d3"), () -> blockedDump(Path.of("d3")))).isEmpty();
    assertThat(dropped.count()).isEqualTo(1);

    release.countDown();
    for (int i = 0; i < accepted.size(); i++) {
      assertThat(accepted.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(Path.of("d" + i));
    }
    assertThat(dumps.submit(Path.of("d4"), () -> 4)).as("room again").isPresent();
  }

  @Test
  void aFailingDumpFailsItsFutureWithTheCause() {
    CompletableFuture<Path> failed =
        dumps
            .<Path>submit(
                Path.of("x"),
                () -> {
                  throw new IOException("no JFR stream is running");
                })
            .orElseThrow();

    assertThat(failed)
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(UncheckedIOException.class)
        .withMessageContaining("no JFR stream is running");
  }
}
