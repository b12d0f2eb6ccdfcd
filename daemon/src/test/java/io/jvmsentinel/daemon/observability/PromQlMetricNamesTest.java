package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The extractor finds exactly the metric names of an expression, nothing else. */
class PromQlMetricNamesTest {

  @Test
  void aBareSelectorIsAMetricName() {
    assertThat(PromQlMetricNames.of("jvm_sentinel_target_up == 0"))
        .containsExactly("jvm_sentinel_target_up");
  }

  @Test
  void matchersDurationsAndStringsAreNotMetricNames() {
    assertThat(
            PromQlMetricNames.of(
                "rate(jvm_gc_pause_seconds_count{cause=~\"CodeCache.*|other{x}\",target=~\"$target\"}"
                    + "[$__rate_interval])"))
        .containsExactly("jvm_gc_pause_seconds_count");
  }

  @Test
  void aggregationsWithLabelListsBeforeOrAfterTheirArgument() {
    assertThat(
            PromQlMetricNames.of(
                "sum without (gc, action, cause) (rate(jvm_gc_pause_seconds_sum[1m]))"
                    + " / sum(rate(jvm_gc_pause_seconds_count[1m])) by (target, gc)"))
        .containsExactly("jvm_gc_pause_seconds_sum", "jvm_gc_pause_seconds_count");
  }

  @Test
  void functionsKeywordsNumbersAndVectorMatchingAreSkipped() {
    assertThat(
            PromQlMetricNames.of(
                "topk(10, rate(jvm_threads_started_by_site_threads_total[1m] offset 5m))\n"
                    + "  and on (target) group_left (id) process_uptime_seconds > bool 1.5e2\n"
                    + "  unless absent(up{job=~\".*jvm-sentinel.*\"}) # a comment naming no_metric\n"
                    + "  or histogram_quantile(0.99, sum by (le) (rate(some_seconds_bucket[5m])))"))
        .containsExactly(
            "jvm_threads_started_by_site_threads_total",
            "process_uptime_seconds",
            "up",
            "some_seconds_bucket");
  }

  @Test
  void aMetricNamedLikeAnAggregationArgumentIsFoundInsideTheCall() {
    assertThat(
            PromQlMetricNames.of(
                "max without (area, id) (jvm_memory_used_bytes{area=\"nonheap\"}"
                    + " / (jvm_memory_max_bytes{area=\"nonheap\"} > 0)) >= 0.8"))
        .containsExactly("jvm_memory_used_bytes", "jvm_memory_max_bytes");
  }

  @Test
  void grafanaLabelValuesQueriesNameOnlyTheirSelector() {
    assertThat(
            PromQlMetricNames.of(
                "label_values(jvm_sentinel_target_up{namespace=~\"$namespace\"}, target)"))
        .containsExactly("jvm_sentinel_target_up");
    assertThat(PromQlMetricNames.of("label_values(jvm_sentinel_target_up, namespace)"))
        .containsExactly("jvm_sentinel_target_up");
  }

  @Test
  void grafanaVariablesInBracesAreNotMetricNames() {
    assertThat(PromQlMetricNames.of("jvm_info{target=~\"${target}\"} * ${factor}"))
        .containsExactly("jvm_info");
  }
}
