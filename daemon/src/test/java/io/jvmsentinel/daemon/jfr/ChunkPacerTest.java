package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunk events handed out at the pace they happened, one read later. */
class ChunkPacerTest {
  private static final long SECOND = 1_000_000_000L;
  private static final Instant CHUNK = Instant.parse("2026-11-25T10:00:00Z");

  private static ChunkPacer.Timed<String> at(double seconds, String event) {
    return new ChunkPacer.Timed<>(CHUNK.plusMillis((long) (seconds * 1000)), event);
  }

  @Test
  void eachEventIsDueItsOffsetInTheChunkAfterTheRead() {
    ChunkPacer<String> pacer = new ChunkPacer<>(1000);
    long read = 100 * SECOND;
    pacer.add(read, CHUNK, Duration.ofSeconds(2), List.of(at(1.5, "c"), at(0.2, "a"), at(1, "b")));

    assertThat(pacer.release(read)).isEmpty();
    assertThat(pacer.release(read + SECOND / 5)).containsExactly("a");
    assertThat(pacer.release(read + SECOND)).containsExactly("b");
    assertThat(pacer.release(read + 2 * SECOND)).containsExactly("c");
    assertThat(pacer.pending()).isZero();
  }

  @Test
  void theNextChunkContinuesWhereThePreviousOneEnds() {
    ChunkPacer<String> pacer = new ChunkPacer<>(1000);
    long read = 50 * SECOND;
    pacer.add(read, CHUNK, Duration.ofSeconds(2), List.of(at(1.9, "first-late")));
    pacer.add(
        read + 2 * SECOND,
        CHUNK.plusSeconds(2),
        Duration.ofSeconds(2),
        List.of(new ChunkPacer.Timed<>(CHUNK.plusMillis(2100), "second-early")));

    assertThat(pacer.release(read + 3 * SECOND)).containsExactly("first-late", "second-early");
  }

  @Test
  void aQuickReadAfterASlowOneWaitsForThePreviousHandOutToEnd() {
    ChunkPacer<String> pacer = new ChunkPacer<>(1000);
    long slow = 20 * SECOND;
    pacer.add(slow, CHUNK, Duration.ofSeconds(3), List.of(at(2.5, "first-late")));
    // Read only 1 s later: its events must not be handed out beside the first chunk's.
    pacer.add(
        slow + SECOND,
        CHUNK.plusSeconds(3),
        Duration.ofSeconds(2),
        List.of(new ChunkPacer.Timed<>(CHUNK.plusMillis(3100), "second-early")));

    assertThat(pacer.release(slow + 2 * SECOND)).isEmpty();
    assertThat(pacer.release(slow + 3 * SECOND - SECOND / 2)).containsExactly("first-late");
    assertThat(pacer.release(slow + 3 * SECOND)).isEmpty();
    assertThat(pacer.release(slow + 3 * SECOND + SECOND / 10)).containsExactly("second-early");
  }

  @Test
  void eventsOutsideTheChunksSpanAreClampedToItsEdges() {
    ChunkPacer<String> pacer = new ChunkPacer<>(1000);
    long read = 10 * SECOND;
    // A target clock far off the daemon's never matters: only offsets within a chunk count.
    pacer.add(read, CHUNK, Duration.ofSeconds(2), List.of(at(-5, "before"), at(60, "after")));

    assertThat(pacer.release(read)).containsExactly("before");
    assertThat(pacer.release(read + 2 * SECOND - 1)).isEmpty();
    assertThat(pacer.release(read + 2 * SECOND)).containsExactly("after");
  }

  @Test
  void beyondItsBoundTheOldestAreHandedOutAtOnceAndNothingIsLost() {
    ChunkPacer<String> pacer = new ChunkPacer<>(2);
    long read = 10 * SECOND;
    pacer.add(read, CHUNK, Duration.ofSeconds(4), List.of(at(1, "a"), at(2, "b"), at(3, "c")));

    assertThat(pacer.release(read)).containsExactly("a");
    assertThat(pacer.drain()).containsExactly("b", "c");
    assertThat(pacer.pending()).isZero();
  }
}
