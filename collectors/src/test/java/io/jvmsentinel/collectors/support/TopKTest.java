package io.jvmsentinel.collectors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Space-Saving heavy hitters: exact within capacity, bounded and never underestimating beyond. */
class TopKTest {

  @Test
  void isExactWhileTheKeysFitAndReturnsTheBusiestFirst() {
    TopK<String, String> top = new TopK<>(4);
    add(top, "a", 5);
    add(top, "b", 2);
    add(top, "c", 9);

    assertThat(top.top(10))
        .extracting(TopK.Entry::key, TopK.Entry::count, TopK.Entry::error)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("c", 9L, 0L),
            org.assertj.core.groups.Tuple.tuple("a", 5L, 0L),
            org.assertj.core.groups.Tuple.tuple("b", 2L, 0L));
    assertThat(top.top(2)).extracting(TopK.Entry::key).containsExactly("c", "a");
    assertThat(top.total()).isEqualTo(16);
    assertThat(top.count("missing")).isZero();
  }

  @Test
  void aNewKeyEvictsTheSmallestAndInheritsItsCountAsTheErrorBound() {
    TopK<String, String> top = new TopK<>(2);
    add(top, "big", 10);
    add(top, "small", 3);
    top.add("new", "sample of new");

    assertThat(top.count("small")).as("evicted").isZero();
    TopK.Entry<String, String> entry = top.top(2).get(1);
    assertThat(entry.key()).isEqualTo("new");
    assertThat(entry.count()).isEqualTo(4);
    assertThat(entry.error()).isEqualTo(3);
    assertThat(entry.sample()).isEqualTo("sample of new");
    assertThat(top.count("big")).isEqualTo(10);
    assertThat(top.total()).isEqualTo(14);
  }

  @Test
  void amongEqualCountsTheOldestIsEvictedFirst() {
    TopK<String, String> top = new TopK<>(3);
    top.add("first", null);
    top.add("second", null);
    top.add("third", null);
    top.add("fourth", null);

    assertThat(top.count("first")).isZero();
    assertThat(top.count("second")).isEqualTo(1);
    assertThat(top.count("fourth")).isEqualTo(2);
  }

  @Test
  void neverUnderestimatesATrueHeavyHitterUnderChurn() {
    TopK<Integer, Void> top = new TopK<>(16);
    Map<Integer, Long> truth = new HashMap<>();
    Random random = new Random(42);
    for (int i = 0; i < 50_000; i++) {
      // A few heavy keys among a flood of one-off keys.
      int key = random.nextInt(10) < 3 ? random.nextInt(3) : 1_000 + i;
      top.add(key, null);
      truth.merge(key, 1L, Long::sum);
    }

    List<TopK.Entry<Integer, Void>> busiest = top.top(3);
    assertThat(busiest).extracting(TopK.Entry::key).containsExactlyInAnyOrder(0, 1, 2);
    for (TopK.Entry<Integer, Void> entry : busiest) {
      long actual = truth.get(entry.key());
      assertThat(entry.count()).isGreaterThanOrEqualTo(actual);
      assertThat(entry.count() - entry.error()).isLessThanOrEqualTo(actual);
    }
    assertThat(top.top(100)).hasSize(16);
    assertThat(top.total()).isEqualTo(50_000);
  }

  @Test
  void makesASampleOnlyForANewKey() {
    TopK<String, String> top = new TopK<>(2);
    AtomicInteger made = new AtomicInteger();
    assertThat(top.addAndGetSample("k", () -> "s" + made.incrementAndGet())).isEqualTo("s1");
    assertThat(top.addAndGetSample("k", () -> "s" + made.incrementAndGet())).isEqualTo("s1");
    assertThat(made).hasValue(1);
    assertThat(top.count("k")).isEqualTo(2);
  }

  @Test
  void clearForgetsEverything() {
    TopK<String, String> top = new TopK<>(2);
    add(top, "a", 3);
    top.clear();
    assertThat(top.top(5)).isEmpty();
    assertThat(top.total()).isZero();
    add(top, "b", 1);
    assertThat(top.top(5)).extracting(TopK.Entry::key).containsExactly("b");
  }

  @Test
  void rejectsNoCapacity() {
    assertThatThrownBy(() -> new TopK<String, String>(0)).hasMessageContaining("positive");
  }

  private static void add(TopK<String, String> top, String key, int times) {
    for (int i = 0; i < times; i++) {
      top.add(key, "sample of " + key);
    }
  }
}
