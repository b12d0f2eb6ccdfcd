package io.jvmsentinel.daemon.docs;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.export.otlp.OtelName;
import io.jvmsentinel.daemon.export.otlp.OtelNames;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/opentelemetry.md is generated from {@link OtelNames}, the one table of OpenTelemetry names.
 * To regenerate: {@code ./mvnw -pl daemon -am test -Dtest=OpenTelemetryDocTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dupdate.docs=true}.
 */
class OpenTelemetryDocTest {

  @Test
  void openTelemetryReferenceMatchesTheTable() throws IOException {
    GeneratedDoc.check("docs/opentelemetry.md", render(), "OpenTelemetryDocTest");
  }

  static String render() {
    StringBuilder out = new StringBuilder();
    out.append("# OpenTelemetry (OTLP) names\n\n")
        .append("<!-- Generated from io.jvmsentinel.daemon.export.otlp.OtelNames by")
        .append(" OpenTelemetryDocTest; do not edit by hand. -->\n\n")
        .append("With `otlp.enabled: true` (see [configuration.md](configuration.md#otlp)) the")
        .append(" daemon pushes every metric of [metrics.md](metrics.md) over OTLP/HTTP.")
        .append(" These follow the OpenTelemetry JVM semantic conventions (`runtime/jvm-metrics`):")
        .append(" the name, unit and attributes below replace ours. Every other metric keeps its")
        .append(" Micrometer name (the `Micrometer name` column of metrics.md) and tags, with the")
        .append(" unit written in UCUM (`s`, `By`, `ms`, `{thread}`). Timers become histograms")
        .append(" with count and sum (no buckets). Each watched JVM is a resource of its own")
        .append(" (`service.name` from its `service` or `app` tag, else the configured one, else")
        .append(" its name; `k8s.namespace.name`, `k8s.pod.name`, `k8s.container.name`,")
        .append(" `k8s.node.name` from its pod identity, and `k8s.pod.uid` from a node agent's")
        .append(" `pod_uid` tag, see [identity.md](identity.md)); the")
        .append(" daemon's own meters keep `service.name` `jvm-sentinel` and are named")
        .append(" `jvm_sentinel.*`, out of the conventions' reserved `jvm.*`. The `target` tag,")
        .append(" the target's other tags and the global `tags` stay data point attributes.")
        .append(" `jvm.memory.*`, `jvm.buffer.*`, `jvm.thread.count`, `jvm.class.count` and")
        .append(" `jvm.cpu.count` are sent as UpDownCounters (non-monotonic cumulative sums), as")
        .append(" the conventions define them.")
        .append(" `jvm.memory.peak` is not in the conventions and keeps our name, with")
        .append(" the pool attributes of its neighbours; `jvm.system.cpu.*` are experimental")
        .append(" there. `jvm.thread.count` carries `jvm.thread.state` but no `jvm.thread.daemon`")
        .append(" (our `jvm.threads.live` and `jvm.threads.daemon` keep their names);")
        .append(" `jvm.memory.limit` reads -1 for a pool without a maximum (the conventions leave")
        .append(" it out).\n\n")
        .append(
            "| OpenTelemetry name | unit | attributes | from (Micrometer name) | conversion |\n")
        .append("|---|---|---|---|---|\n");
    for (Map.Entry<Metric, OtelName> e : OtelNames.table().entrySet()) {
      Metric metric = e.getKey();
      OtelName otel = e.getValue();
      out.append("| `")
          .append(otel.name())
          .append("` | `")
          .append(otel.unit())
          .append("` | ")
          .append(attributes(metric, otel))
          .append(" | `")
          .append(metric.meterName())
          .append("` | ")
          .append(conversion(otel))
          .append(" |\n");
    }
    return out.toString();
  }

  private static String attributes(Metric metric, OtelName otel) {
    if (metric.tagKeys().isEmpty()) {
      return "";
    }
    // "state (new, runnable, ...)": the keys without their explanations.
    String keys = metric.tagKeys().replaceAll("\\s*\\([^)]*\\)", "");
    return java.util.Arrays.stream(keys.split(",\\s*"))
        .map(
            tag -> {
              String name = otel.attributes().getOrDefault(tag, tag);
              Map<String, String> values = otel.values().getOrDefault(tag, Map.of());
              String translated =
                  values.entrySet().stream()
                      .sorted(Map.Entry.comparingByKey())
                      .map(v -> "`" + v.getKey() + "` → `" + v.getValue() + "`")
                      .collect(Collectors.joining(", "));
              return "`"
                  + name
                  + "` (ours: `"
                  + tag
                  + "`"
                  + (translated.isEmpty() ? "" : "; " + translated)
                  + ")";
            })
        .collect(Collectors.joining(", "));
  }

  private static String conversion(OtelName otel) {
    return otel.scale() == 1 ? "" : "× " + otel.scale();
  }
}
