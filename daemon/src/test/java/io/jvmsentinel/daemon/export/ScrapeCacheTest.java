package io.jvmsentinel.daemon.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ScrapeCacheTest {
  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String OPEN_METRICS = "application/openmetrics-text";

  private final AtomicLong now = new AtomicLong();
  private final Queue<Runnable> background = new ArrayDeque<>();
  private final List<String> renders = new ArrayList<>();
  private int size = ScrapeCache.LARGE_BYTES;

  private final ScrapeCache cache =
      new ScrapeCache(
          contentType -> {
            renders.add(contentType);
            byte[] body = new byte[size];
            body[0] = (byte) renders.size(); // which render produced it
            return body;
          },
          now::get,
          background::add);

  @Test
  void aSmallBodyIsRenderedForEveryScrape() {
    size = ScrapeCache.LARGE_BYTES - 1;
    cache.body(TEXT);
    cache.body(TEXT);
    cache.body(TEXT);
    assertThat(renders).hasSize(3);
    assertThat(background).isEmpty();
  }

  @Test
  void aLargeBodyIsServedFromTheCacheWithoutRenderingOnTheRequest() {
    byte[] first = cache.body(TEXT);
    advance(Duration.ofMillis(500));
    assertThat(cache.body(TEXT)).isSameAs(first);
    assertThat(renders).hasSize(1);
    assertThat(background).as("younger than REFRESH_AFTER: no render at all").isEmpty();
  }

  @Test
  void aScrapeOfAnOlderBodyStartsOneBackgroundRenderForTheNextScrape() {
    byte[] first = cache.body(TEXT);
    advance(Duration.ofSeconds(15));
    assertThat(cache.body(TEXT)).isSameAs(first);
    assertThat(cache.body(TEXT)).isSameAs(first);
    assertThat(renders).as("nothing rendered on the requests").hasSize(1);
    assertThat(background).as("one render queued, not one per scrape").hasSize(1);

    background.remove().run();
    byte[] next = cache.body(TEXT);
    assertThat(next[0]).isEqualTo((byte) 2);
    assertThat(renders).hasSize(2);
  }

  @Test
  void aBodyOlderThanTheMaximumAgeIsRenderedOnTheRequest() {
    cache.body(TEXT);
    advance(ScrapeCache.MAX_AGE);
    byte[] body = cache.body(TEXT);
    assertThat(body[0]).isEqualTo((byte) 2);
    assertThat(background).isEmpty();
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
  void aRejectedBackgroundRenderLeavesTheCachedBodyInService() {
    ScrapeCache rejecting =
        new ScrapeCache(
            contentType -> new byte[ScrapeCache.LARGE_BYTES],
            now::get,
            task -> {
              throw new java.util.concurrent.RejectedExecutionException("full");
            });
    byte[] first = rejecting.body(TEXT);
    advance(Duration.ofSeconds(5));
    assertThat(rejecting.body(TEXT)).isSameAs(first);
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }
}
