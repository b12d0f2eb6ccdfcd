package io.jvmsentinel.collectors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.text.SafeText;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class CardinalityCapTest {

  @Test
  void keepsTheFirstValuesForGoodThenOther() {
    CardinalityCap cap = new CardinalityCap(3);
    assertThat(cap.value("a")).isEqualTo("a");
    assertThat(cap.value("b")).isEqualTo("b");
    assertThat(cap.value("c")).isEqualTo("c");
    assertThat(cap.full()).isTrue();

    assertThat(cap.value("d")).isEqualTo(CardinalityCap.OTHER);
    assertThat(cap.value("e")).isEqualTo(CardinalityCap.OTHER);
    assertThat(cap.value("a")).as("an admitted value stays").isEqualTo("a");
    assertThat(cap.capped()).isEqualTo(2);
  }

  @Test
  void aValueIsCutAndMadeSafeBeforeItIsAdmitted() {
    CardinalityCap cap = new CardinalityCap(2);
    String hostile = "peer\r\nforged\u202E" + "x".repeat(100_000);
    String tag = cap.value(hostile);
    assertThat(tag).hasSize(SafeText.MAX_NAME).startsWith("peer__forged_xxx");
    assertThat(cap.value(hostile + "y")).as("the same once cut: no second place").isEqualTo(tag);
    assertThat(cap.full()).isFalse();
  }

  @Test
  void aValueRefusedUnreadIsCounted() {
    CardinalityCap cap = new CardinalityCap(1);
    cap.refuse();
    assertThat(cap.capped()).isEqualTo(1);
    assertThat(cap.full()).isFalse();
  }

  @Test
  void aMissingValueIsUnknownAndTakesNoPlace() {
    CardinalityCap cap = new CardinalityCap(1);
    assertThat(cap.value(null)).isEqualTo(CardinalityCap.UNKNOWN);
    assertThat(cap.value(" ")).isEqualTo(CardinalityCap.UNKNOWN);
    assertThat(cap.value("only")).isEqualTo("only");
    assertThat(cap.capped()).isZero();
  }

  @Test
  void capsCombinationsOfTags() {
    CardinalityCap series = new CardinalityCap(2);
    assertThat(series.admit(List.of("p1", "TLSv1.3", "c1"))).isTrue();
    assertThat(series.admit(List.of("p1", "TLSv1.3", "c2"))).isTrue();
    assertThat(series.admit(List.of("p2", "TLSv1.3", "c1"))).isFalse();
    assertThat(series.admitted(List.of("p1", "TLSv1.3", "c2"))).isTrue();
    assertThat(series.admitted(List.of("p2", "TLSv1.3", "c1"))).isFalse();
    assertThat(series.capped()).isEqualTo(1);
  }

  @Test
  void countsWhatItCappedPerMeterAndTagOnceItBites() {
    MeterRegistry registry = new SimpleMeterRegistry();
    CardinalityCap cap = new CardinalityCap(1);
    cap.bindTo(registry, Tags.of("target", "t"), Metric.JVM_GC_PAUSE, "cause");
    cap.value("Allocation Failure");
    assertThat(registry.find("jvm.sentinel.tag.values.capped").meters())
        .as("no series while the cap does not bite")
        .isEmpty();
    cap.value("G1 Humongous Allocation");
    cap.value("Metadata GC Threshold");

    double capped =
        registry
            .get("jvm.sentinel.tag.values.capped")
            .tags("target", "t", "meter", "jvm.gc.pause", "tag", "cause")
            .functionCounter()
            .count();
    assertThat(capped).isEqualTo(2);
  }

  @Test
  void rejectsAnEmptyCap() {
    assertThatThrownBy(() -> new CardinalityCap(0)).hasMessageContaining("at least one");
  }
}
