package io.jvmsentinel.collectors.jfr.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JitRestartHandlerTest {
  @Test
  void recordsTheRestartAfterAFullCodeCacheOnJdk17() {
    JitRestartHandler handler = new JitRestartHandler();
    Recordings.events("codecache/codecache-full-noflush-jdk17.jfr", JitRestartHandler.EVENT)
        .forEach(handler::accept);

    // jfr print: one JITRestart, freedMemory = 6.1 kB, codeCacheMaxCapacity = 8.0 MB.
    assertThat(handler.recent())
        .singleElement()
        .satisfies(
            restart -> {
              assertThat(restart.freedMemory()).isBetween(6_000L, 6_400L);
              assertThat(restart.codeCacheMaxCapacity()).isEqualTo(8 * 1024 * 1024);
            });
    handler.streamStopped();
    assertThat(handler.recent()).isEmpty();
  }

  @Test
  void jdk25RestartsAfterEachFillOfTheProfiledHeap() {
    JitRestartHandler handler = new JitRestartHandler();
    Recordings.events("codecache/codecache-restart-jdk25.jfr", JitRestartHandler.EVENT)
        .forEach(handler::accept);

    // jfr print: two restarts, 916.0 kB then 1.6 MB freed, each about 1 to 2 s after a fill.
    assertThat(handler.recent())
        .extracting(JitRestartHandler.JitRestart::freedMemory)
        .satisfiesExactly(
            first -> assertThat(first).isEqualTo(916 * 1024),
            second -> assertThat(second).isBetween(1_500_000L, 1_800_000L));
  }
}
