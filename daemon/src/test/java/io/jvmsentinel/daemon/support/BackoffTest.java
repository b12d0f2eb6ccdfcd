package io.jvmsentinel.daemon.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Equal jitter: each delay in [d/2, d], d doubling from the initial delay up to the cap. */
class BackoffTest {
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  @Test
  void theCeilingDoublesUpToTheCap() {
    Backoff highest = new Backoff(SECOND, TEN_SECONDS, () -> 1.0);
    assertThat(delaysInMillis(highest, 6))
        .containsExactly(1_000, 2_000, 4_000, 8_000, 10_000, 10_000);
  }

  @Test
  void halfOfEachDelayIsFixed() {
    Backoff lowest = new Backoff(SECOND, TEN_SECONDS, () -> 0.0);
    assertThat(delaysInMillis(lowest, 5)).containsExactly(500, 1_000, 2_000, 4_000, 5_000);
  }

  @Test
  void resetStartsAgainFromTheInitialDelay() {
    Backoff backoff = new Backoff(SECOND, TEN_SECONDS, () -> 1.0);
    delaysInMillis(backoff, 4);
    backoff.reset();
    assertThat(backoff.next()).isEqualTo(SECOND);
  }

  @Test
  void aCapBelowTheInitialDelayIsTheInitialDelay() {
    Backoff backoff = new Backoff(TEN_SECONDS, SECOND, () -> 1.0);
    assertThat(delaysInMillis(backoff, 3)).containsExactly(10_000, 10_000, 10_000);
  }

  private static long[] delaysInMillis(Backoff backoff, int count) {
    long[] delays = new long[count];
    for (int i = 0; i < count; i++) {
      delays[i] = backoff.next().toMillis();
    }
    return delays;
  }
}
