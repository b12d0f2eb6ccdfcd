package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.JfrConfig.Feed;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which feed a target gets from jfr.feed and its Java version, and what the API says of it. */
class FeedChoiceTest {
  private static final Duration PERIOD = Duration.ofSeconds(2);

  @Test
  void autoStreamsFromJava16AndWhenTheVersionIsUnknownAndReadsChunksBefore() {
    assertThat(FeedChoice.of(Feed.AUTO, 17).chunks()).isFalse();
    assertThat(FeedChoice.of(Feed.AUTO, 16).chunks()).isFalse();
    assertThat(FeedChoice.of(Feed.AUTO, 0).chunks()).isFalse();
    assertThat(FeedChoice.of(Feed.AUTO, 11).chunks()).isTrue();
    assertThat(FeedChoice.of(Feed.AUTO, 11).description(PERIOD))
        .isEqualTo("reading the recording in chunks every 2s (Java 11 has no remote streaming)");
    assertThat(FeedChoice.of(Feed.AUTO, 17).description(PERIOD)).isEqualTo("streaming");
  }

  @Test
  void chunksWhenConfiguredOnAnyJava() {
    FeedChoice chunks = FeedChoice.of(Feed.CHUNKS, 21);
    assertThat(chunks.chunks()).isTrue();
    assertThat(chunks.streamOnTooOldJvm()).isFalse();
    assertThat(chunks.description(PERIOD))
        .isEqualTo("reading the recording in chunks every 2s (jfr.feed: chunks)");
    assertThat(chunks.logName(PERIOD)).isEqualTo("chunk reads every 2s");
  }

  @Test
  void aStreamAskedOfJava11IsNotTriedAndSaysWhy() {
    FeedChoice stream = FeedChoice.of(Feed.STREAM, 11);
    assertThat(stream.chunks()).isFalse();
    assertThat(stream.streamOnTooOldJvm()).isTrue();
    assertThat(stream.tooOldReason())
        .isEqualTo(
            "the target runs Java 11; remote JFR streaming needs Java 16 or newer (jfr.feed:"
                + " stream), so only JMX metrics are collected");
    assertThat(FeedChoice.of(Feed.STREAM, 0).streamOnTooOldJvm()).isFalse();
    assertThat(stream.logName(PERIOD)).isEqualTo("stream");
  }
}
