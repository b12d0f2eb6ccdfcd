package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The native heap trim goes through the JVM's own diagnostic command. */
class StartUpHeapTest {
  @Test
  void theJvmAnswersTheTrim() {
    // glibc (this machine): the JVM reports what the trim returned; elsewhere it says why not.
    assertThat(StartUpHeap.trimNativeHeap())
        .doesNotStartWith("not trimmed")
        .containsAnyOf("Trim native heap", "Not available")
        .doesNotContain("\n");
  }

  @Test
  void releaseRunsOnce() {
    StartUpHeap.release();
  }
}
