package io.jvmsentinel.collectors.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each drain gives what happened since the previous one, busiest first, with bounded details. */
class IntervalCountsTest {
  private final IntervalCounts counts = new IntervalCounts();

  @Test
  void aDrainGivesTheIntervalsCountsAndStartsANewOne() {
    counts.add("a.B.hot", "unstable_if");
    counts.add("a.B.hot", "class_check");
    counts.add("a.B.hot", "unstable_if");
    counts.add("a.C.cold", null);

    assertThat(counts.drain(5))
        .containsExactly(
            new IntervalCounts.Count("a.B.hot", 3, List.of("unstable_if", "class_check")),
            new IntervalCounts.Count("a.C.cold", 1, List.of()));
    assertThat(counts.drain(5)).isEmpty();
  }

  @Test
  void detailsPerKeyAreBounded() {
    for (int i = 0; i < 20; i++) {
      counts.add("a.B.hot", "reason" + i);
    }
    assertThat(counts.drain(1).get(0).details()).hasSize(IntervalCounts.MAX_DETAILS);
  }
}
