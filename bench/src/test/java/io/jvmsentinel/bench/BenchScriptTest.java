package io.jvmsentinel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchScriptTest {

  @Test
  void readsTheMedianLinesOfTheScriptsAsFiguresPerMode() {
    Map<String, Map<String, Object>> medians = new LinkedHashMap<>();
    BenchScript.parseMedian(
        "median sampled   starts_per_s=6122 ratio_to_none=0.719 daemon_rss_mb=-", medians);
    BenchScript.parseMedian("median full  events_per_s=123000", medians);
    BenchScript.parseMedian("none    round=5 starts_per_s=8212", medians);
    BenchScript.parseMedian("# median of nothing", medians);

    assertThat(medians).containsOnlyKeys("sampled", "full");
    assertThat(BenchScript.number(medians.get("sampled"), "starts_per_s")).isEqualTo(6122.0);
    assertThat(BenchScript.number(medians.get("sampled"), "ratio_to_none")).isEqualTo(0.719);
    assertThat(medians.get("sampled").get("daemon_rss_mb")).isEqualTo("-");
    assertThat(BenchScript.number(medians.get("sampled"), "daemon_rss_mb")).isNaN();
    assertThat(BenchScript.number(medians.get("full"), "events_per_s")).isEqualTo(123000.0);
    assertThat(BenchScript.number(medians.get("absent"), "events_per_s")).isNaN();
  }
}
