package io.jvmsentinel.collectors.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MetricTest {
  @Test
  void everyMeterNameIsUniqueAndDotCase() {
    assertThat(Arrays.stream(Metric.values()).map(Metric::meterName)).doesNotHaveDuplicates();
    assertThat(Metric.values())
        .allSatisfy(metric -> assertThat(metric.meterName()).matches("[a-z0-9]+(\\.[a-z0-9]+)+"));
  }

  @Test
  void everyMeterHasADescriptionAndASource() {
    assertThat(Metric.values())
        .allSatisfy(
            metric -> {
              assertThat(metric.description()).isNotBlank();
              assertThat(metric.source()).isNotBlank();
            });
  }

  @Test
  void daemonSelfMetricsArePrefixedSoTheyNeverClashWithTargetMetrics() {
    assertThat(Metric.values())
        .filteredOn(metric -> metric.source().equals("daemon"))
        .allSatisfy(metric -> assertThat(metric.meterName()).startsWith("jvm.sentinel."));
  }

  @Test
  void registeringAMeterAsTheWrongKindFails() {
    assertThatThrownBy(
            () -> Metric.JVM_THREADS_LIVE.counter(new SimpleMeterRegistry(), Tags.empty()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("jvm.threads.live is a GAUGE, not a COUNTER");
  }
}
