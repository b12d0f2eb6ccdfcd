package io.jvmsentinel.collectors.jfr.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ThreadEndHandlerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ThreadLifetimes lifetimes = new ThreadLifetimes();
  private final ThreadStartHandler starts = new ThreadStartHandler(Tags.empty(), lifetimes);
  private final ThreadEndHandler ends = new ThreadEndHandler(Tags.empty(), lifetimes);

  ThreadEndHandlerTest() {
    starts.bindTo(registry);
    ends.bindTo(registry);
  }

  @Test
  void declaresThreadEndWithoutStackTraces() {
    assertThat(ends.eventName()).isEqualTo("jdk.ThreadEnd");
    assertThat(ends.settings().toJfrSettings("jdk.ThreadEnd"))
        .containsEntry("jdk.ThreadEnd#stackTrace", "false");
  }

  @ParameterizedTest
  @ValueSource(strings = {JfrFixtures.THREAD_STARTS_17, JfrFixtures.THREAD_STARTS_25})
  void theDirectWorkersAreShortLivedThePoolThreadsAreNot(String fixture) {
    JfrFixtures.replay(fixture, starts, ends);

    // 25 workers + 4 pool threads (alive 1.5 s) + main.
    assertThat(counter("jvm.threads.ended")).isEqualTo(30);
    assertThat(counter("jvm.threads.short.lived")).isEqualTo(25);
    assertThat(lifetimes.shortLivedCount()).isEqualTo(25);
    assertThat(starts.snapshot(1).shortLivedThreads()).isEqualTo(25);
  }

  @ParameterizedTest
  @ValueSource(strings = {JfrFixtures.TLS_NOTIFY_17, JfrFixtures.TLS_NOTIFY_25})
  void everyHandshakeNotifyThreadIsShortLived(String fixture) {
    JfrFixtures.replay(fixture, starts, ends);

    // 12 notify threads; the server's two threads and main lived over 1 s.
    assertThat(counter("jvm.threads.ended")).isEqualTo(15);
    assertThat(counter("jvm.threads.short.lived")).isEqualTo(12);
  }

  @Test
  void anEndWithoutAStartSeenIsCountedButNotShortLived() {
    ends.record(99, Starts.T0);
    ends.record(-1, null);

    assertThat(counter("jvm.threads.ended")).isEqualTo(2);
    assertThat(counter("jvm.threads.short.lived")).isZero();
  }

  @Test
  void theLimitIsOneSecondInclusive() {
    starts.record(Starts.start(1, "a", "A.a:1"));
    starts.record(Starts.start(2, "b", "A.a:1"));

    ends.record(1, Starts.T0.plusSeconds(1));
    ends.record(2, Starts.T0.plusSeconds(1).plusNanos(1));

    assertThat(counter("jvm.threads.short.lived")).isEqualTo(1);
  }

  @Test
  void aStoppedStreamForgetsStartsInFlight() {
    starts.record(Starts.start(1, "a", "A.a:1"));

    ends.streamStopped();
    ends.record(1, Starts.T0.plusMillis(5));

    assertThat(counter("jvm.threads.ended")).isEqualTo(1);
    assertThat(counter("jvm.threads.short.lived")).isZero();
  }

  @Test
  void startsInFlightAreBoundedOldestFirst() {
    ThreadLifetimes small = new ThreadLifetimes(1_000, Duration.ofSeconds(1));
    Instant at = Starts.T0;
    for (long id = 0; id < 5_000; id++) {
      small.started(id, at);
    }

    assertThat(small.inFlight()).isEqualTo(1_000);
    assertThat(small.evictedCount()).isEqualTo(4_000);
    assertThat(small.ended(0, at)).isFalse();
    assertThat(small.ended(4_999, at)).isTrue();
  }

  private double counter(String name) {
    return registry.get(name).counter().count();
  }
}
