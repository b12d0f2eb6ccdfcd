package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What /api/v1/targets shows of a stream: one value, so state and reason always agree. */
class StreamStateTest {

  @Test
  void streamingShowsNoStaleReason() {
    StreamState failed = StreamState.NOT_STARTED.withReason("cannot start the JFR stream: x");
    assertThat(failed.describe()).isEqualTo("cannot start the JFR stream: x");
    assertThat(new StreamState(true, null).describe()).isEqualTo("streaming");
    assertThat(new StreamState(true, "old reason").describe()).isEqualTo("streaming");
  }

  @Test
  void notStartedUntilSomethingIsKnown() {
    assertThat(StreamState.NOT_STARTED.streaming()).isFalse();
    assertThat(StreamState.NOT_STARTED.describe()).isEqualTo("not started");
    assertThat(new StreamState(false, "paused").withReason(null).describe())
        .isEqualTo("not started");
  }
}
