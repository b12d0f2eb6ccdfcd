package io.jvmsentinel.daemon.docs;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.daemon.catalog.Catalog;
import io.jvmsentinel.daemon.observability.CatalogNames;
import io.jvmsentinel.daemon.testing.Jdks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md is generated from the metric catalog, so the two cannot drift apart. To
 * regenerate after changing the catalog: {@code ./mvnw -pl daemon -am test -Dtest=MetricsDocTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dupdate.docs=true}. Everything after {@link #END} is
 * written by hand (facts that belong to no single meter) and kept as it is when regenerating.
 */
class MetricsDocTest {
  static final String END =
      "<!-- End of the generated reference. Below: written by hand, kept by MetricsDocTest. -->\n";

  @Test
  void metricsReferenceMatchesTheCatalog() throws IOException {
    Path doc = Jdks.repoRoot().resolve("docs/metrics.md");
    String text = Files.exists(doc) ? Files.readString(doc) : "";
    int end = text.indexOf(END);
    String handWritten = end < 0 ? "" : text.substring(end + END.length());
    GeneratedDoc.check("docs/metrics.md", render() + "\n" + END + handWritten, "MetricsDocTest");
  }

  static String render() {
    StringBuilder out = new StringBuilder();
    out.append("# Metrics reference\n\n")
        .append(
            "<!-- Generated from io.jvmsentinel.collectors.catalog.Metric and io.jvmsentinel.daemon.catalog.SentinelMetric by MetricsDocTest;")
        .append(" do not edit by hand. -->\n\n")
        .append("Every series carries the `target` tag (the target's configured name), the")
        .append(" target's own `tags`, and the global `tags` of the configuration. In")
        .append(" Kubernetes every target's series also carry its pod's `namespace`, `pod`,")
        .append(" `container` and `node` (one value each per target, so no more series), which")
        .append(" tell the replicas of an app apart: see [identity.md](identity.md).\n")
        .append("Names follow Micrometer's JVM binders where the meaning is the same, so existing")
        .append(" JVM dashboards keep working. Gauges read NaN while their target is down;")
        .append(" counters keep their last value and reset when the target restarts.\n")
        .append("Timers export `_count`, `_sum` and `_max`.\n")
        .append("Tag values that come from the target (GC collector, action and cause;")
        .append(" compiler, tier, failure and deoptimisation reasons; TLS peer, protocol and")
        .append(" cipher, and their combinations; creator sites; code heap segments; memory and")
        .append(" buffer pools) are capped:")
        .append(
            " the first values seen keep their own series, later ones are counted under `other`")
        .append(" (code heap segments and pools beyond the cap are skipped) and in")
        .append(" `jvm_sentinel_tag_values_capped_total{meter, tag}`; the JVM's own memory and")
        .append(" buffer pools are always read before made-up ones; every one is cut to 256")
        .append(" characters, control, bidirectional and zero-width characters as `_`. See")
        .append(" [operations.md](operations.md#capacity-and-overload).\n\n")
        .append(
            "| Prometheus name | Micrometer name | type | unit | tags | description | source |\n")
        .append("|---|---|---|---|---|---|---|\n");
    for (MeterDefinition metric : Catalog.everyMeter()) {
      out.append("| `")
          .append(CatalogNames.prometheusName(metric))
          .append("` | `")
          .append(metric.meterName())
          .append("` | ")
          .append(metric.kind().name().toLowerCase(java.util.Locale.ROOT))
          .append(" | ")
          .append(metric.baseUnit() == null ? "" : metric.baseUnit())
          .append(" | ")
          .append(metric.tagKeys())
          .append(" | ")
          .append(metric.description().replace("|", "\\|"))
          .append(" | ")
          .append(metric.source().replace("|", "\\|"))
          .append(" |\n");
    }
    return out.toString();
  }
}
