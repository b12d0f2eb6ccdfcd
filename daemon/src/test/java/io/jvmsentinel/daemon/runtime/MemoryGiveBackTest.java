package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up collection and the native heap trim go through the JVM's own interfaces. */
class MemoryGiveBackTest {
  @Test
  void theJvmAnswersTheTrim() {
    // glibc (this machine): the JVM reports what the trim returned; elsewhere it says why not.
    assertThat(MemoryGiveBack.trimNativeHeap())
        .doesNotStartWith("not trimmed")
        .containsAnyOf("Trim native heap", "Not available")
        .doesNotContain("\n");
  }

  @Test
  void theStartUpCollectionFreesGarbage() {
    byte[][] garbage = new byte[64][];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = new byte[256 * 1024];
    }
    garbage = null;

    MemoryGiveBack.Collected collected = MemoryGiveBack.collect();

    assertThat(collected.after().getUsed())
        .as("16 MB of garbage collected")
        .isLessThan(collected.before().getUsed() - 8 * 1024 * 1024);
  }

  @Test
  void theDaemonTrimsUnlessTheJvmIsToldTo() {
    // The test JVM runs without -XX:TrimNativeHeapInterval (0 or, before JDK 21.0.1, no flag).
    assertThat(MemoryGiveBack.jvmTrims()).isFalse();
  }
}
