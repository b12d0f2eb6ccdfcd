package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A target that hangs every connect holds one helper thread, not one per retry. */
class TimeLimitedConnectTest {
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseHungConnect() {
    release.countDown();
  }

  @Test
  void aHungAttemptBlocksTheNextOneInsteadOfStartingAnotherThread() throws Exception {
    TimeLimitedConnect connects = new TimeLimitedConnect("jmx-connect-test-hung");
    AtomicInteger started = new AtomicInteger();
    TimeLimitedConnect.BlockingConnect hangs =
        () -> {
          started.incrementAndGet();
          release.await();
          throw new IOException("released");
        };

    assertThatThrownBy(() -> connects.connect(hangs, Duration.ofMillis(200), "hung"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("timed out after 200 ms");
    for (int retry = 0; retry < 5; retry++) {
      assertThatThrownBy(() -> connects.connect(hangs, Duration.ofMillis(200), "hung"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("previous attempt, timed out, is still waiting");
    }

    assertThat(started).hasValue(1);
    assertThat(helperThreads("jmx-connect-test-hung")).isEqualTo(1);
  }

  @Test
  void aFinishedAttemptFreesTheThreadForTheNext() throws Exception {
    TimeLimitedConnect connects = new TimeLimitedConnect("jmx-connect-test-quick");
    AtomicInteger attempts = new AtomicInteger();
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(
              () ->
                  connects.connect(
                      () -> {
                        attempts.incrementAndGet();
                        throw new IOException("refused");
                      },
                      Duration.ofSeconds(5),
                      "quick"))
          .hasMessage("refused");
    }
    assertThat(attempts).hasValue(3);
  }

  private static long helperThreads(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals(name))
        .count();
  }
}
