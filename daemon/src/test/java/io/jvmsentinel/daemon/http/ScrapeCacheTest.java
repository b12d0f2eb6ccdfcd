package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ScrapeCacheTest {
  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String OPEN_METRICS = "application/openmetrics-text";
  private static final Duration RENDER_TIME = Duration.ofMillis(100);

  private record Scheduled(Runnable task, Duration delay) {}

  private final AtomicLong now = new AtomicLong();
  private final List<Scheduled> scheduled = new ArrayList<>();
  private final List<String> renders = new ArrayList<>();
  private int size = ScrapeCache.LARGE_BYTES;

  private final ScrapeCache cache =
      new ScrapeCache(
          contentType -> {
            renders.add(contentType);
            advance(RENDER_TIME);
            byte[] body = new byte[size];
            body[0] = (byte) renders.size(); // which render produced it
            return body;
          },
          now::get,
          (task, delayNanos) -> scheduled.add(new Scheduled(task, Duration.ofNanos(delayNanos))));

  @Test
  void aSmallBodyIsRenderedForEveryScrape() {
    size = ScrapeCache.LARGE_BYTES - 1;
    for (int i = 0; i < 3; i++) {
      cache.body(TEXT);
      advance(Duration.ofSeconds(15));
    }
    assertThat(renders).hasSize(3);
    assertThat(scheduled).isEmpty();
  }

  @Test
  void aSteadyScraperGetsABodyRenderedJustBeforeItAsksAndNeverWaitsForOne() {
    cache.body(TEXT); // the first scrape renders (0.1 s)
    advance(Duration.ofMillis(14_900)); // scrapes 15 s apart
    byte[] second = cache.body(TEXT);
    assertThat(second[0]).as("served from the cache").isEqualTo((byte) 1);
    assertThat(renders).hasSize(1);
    // Due 15 s after this scrape; rendered a second and twice a render's time before.
    assertThat(scheduled)
        .singleElement()
        .extracting(Scheduled::delay)
        .isEqualTo(Duration.ofMillis(13_800));

    advance(Duration.ofMillis(13_800));
    runScheduled(); // 0.1 s
    advance(Duration.ofMillis(1_100));
    byte[] third = cache.body(TEXT);
    assertThat(third[0]).as("the render scheduled for it").isEqualTo((byte) 2);
    assertThat(renders).hasSize(2);
    assertThat(scheduled).as("and the next one is scheduled").hasSize(1);
  }

  @Test
  void backToBackScrapesCostOneRenderAtMostEverySecond() {
    cache.body(TEXT);
    for (int i = 0; i < 50; i++) {
      advance(Duration.ofMillis(10));
      cache.body(TEXT);
    }
    assertThat(renders).as("nothing rendered on the requests").hasSize(1);
    assertThat(scheduled).as("one render pending, not one per scrape").hasSize(1);
    // The first render ended at 0.1 s; the next may start a second after it began (t = 0).
    assertThat(scheduled.get(0).delay()).isLessThanOrEqualTo(ScrapeCache.REFRESH_AFTER);
    assertThat(scheduled.get(0).delay()).isGreaterThan(Duration.ZERO);
  }

  @Test
  void aScrapeAfterALongPauseRendersOnTheRequest() {
    cache.body(TEXT);
    advance(ScrapeCache.MAX_AGE);
    byte[] body = cache.body(TEXT);
    assertThat(body[0]).isEqualTo((byte) 2);
    assertThat(scheduled).isEmpty();
  }

  @Test
  void eachContentTypeHasItsOwnBody() {
    byte[] text = cache.body(TEXT);
    byte[] openMetrics = cache.body(OPEN_METRICS);
    assertThat(renders).containsExactly(TEXT, OPEN_METRICS);
    assertThat(cache.body(TEXT)).isSameAs(text);
    assertThat(cache.body(OPEN_METRICS)).isSameAs(openMetrics);
  }

  @Test
  void aBodyThatShrankBelowTheThresholdIsNoLongerCached() {
    cache.body(TEXT);
    advance(ScrapeCache.MAX_AGE);
    size = 10;
    cache.body(TEXT);
    cache.body(TEXT);
    assertThat(renders).hasSize(3);
  }

  @Test
  void aRejectedRenderLeavesTheCachedBodyInServiceAndIsTriedAgain() {
    List<Runnable> accepted = new ArrayList<>();
    boolean[] reject = {true};
    ScrapeCache rejecting =
        new ScrapeCache(
            contentType -> new byte[ScrapeCache.LARGE_BYTES],
            now::get,
            (task, delay) -> {
              if (reject[0]) {
                throw new RejectedExecutionException("shutting down");
              }
              accepted.add(task);
            });
    byte[] first = rejecting.body(TEXT);
    advance(Duration.ofSeconds(5));
    assertThat(rejecting.body(TEXT)).isSameAs(first);
    reject[0] = false;
    advance(Duration.ofSeconds(5));
    rejecting.body(TEXT);
    assertThat(accepted).hasSize(1);
  }

  @Test
  void theDaemonsOwnRendererRendersTheScheduledBody() {
    AtomicLong rendered = new AtomicLong();
    ScrapeCache real =
        new ScrapeCache(
            contentType -> {
              byte[] body = new byte[ScrapeCache.LARGE_BYTES];
              body[0] = (byte) rendered.incrementAndGet();
              return body;
            });
    real.body(TEXT);
    assertThat(real.body(TEXT)[0]).as("back to back: from the cache").isEqualTo((byte) 1);
    // Scheduled at most REFRESH_AFTER after the first render, on the metrics-render thread.
    await().atMost(Duration.ofSeconds(10)).until(() -> rendered.get() == 2);
    assertThat(real.body(TEXT)[0]).isEqualTo((byte) 2);
  }

  private void runScheduled() {
    List<Scheduled> due = new ArrayList<>(scheduled);
    scheduled.clear();
    due.forEach(s -> s.task().run());
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }
}
