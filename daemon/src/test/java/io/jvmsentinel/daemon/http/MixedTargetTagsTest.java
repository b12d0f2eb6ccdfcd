package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.TargetTagKeys;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fixed target and a discovered one feed the same metric names with different tags: completed to
 * one key set, both register and both are scraped (the registry refuses differing key sets).
 */
@SuppressWarnings("deprecation") // the simpleclient registry, as the daemon uses it
class MixedTargetTagsTest {
  @Test
  void targetsOfDifferentSourcesShareOneLabelSet() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    TargetTagKeys keys = new TargetTagKeys(List.of("app", "main_class", "pid"));
    register(registry, "orders", keys.complete(Map.of("app", "orders")));
    register(registry, "Lab-42", keys.complete(Map.of("main_class", "io.Lab", "pid", "42")));

    String scrape = registry.scrape();
    assertThat(scrape)
        .contains("probe_value{app=\"orders\",main_class=\"\",pid=\"\",target=\"orders\",} 1.0")
        .contains("probe_value{app=\"\",main_class=\"io.Lab\",pid=\"42\",target=\"Lab-42\",} 1.0");
  }

  private static void register(
      PrometheusMeterRegistry registry, String target, Map<String, String> tags) {
    Tags all = Tags.of("target", target);
    for (Map.Entry<String, String> tag : tags.entrySet()) {
      all = all.and(tag.getKey(), tag.getValue());
    }
    Gauge.builder("probe.value", () -> 1).tags(all).register(registry);
  }
}
