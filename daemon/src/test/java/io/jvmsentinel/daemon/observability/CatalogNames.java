package io.jvmsentinel.daemon.observability;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.collectors.catalog.MeterKind;
import io.jvmsentinel.daemon.catalog.Catalog;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheus.PrometheusNamingConvention;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names the metric catalog exports: Prometheus series names (timers expanded to {@code _count},
 * {@code _sum} and {@code _max}, as docs/metrics.md says) and Micrometer dot names as Datadog
 * receives them over DogStatsD (timers arrive as histograms: {@code .count}, {@code .avg}, {@code
 * .max}, {@code .median}, {@code .95percentile}, and {@code .sum} when the agent enables it).
 */
@SuppressWarnings("deprecation") // the simpleclient registry's naming convention, as the daemon
public final class CatalogNames {
  private static final PrometheusNamingConvention PROMETHEUS = new PrometheusNamingConvention();

  /**
   * Series Prometheus itself adds for every scrape target; dashboards and rules may use these
   * although the daemon does not export them.
   */
  static final Set<String> PROMETHEUS_SCRAPE_SERIES = Set.of("up", "scrape_duration_seconds");

  /**
   * The daemon's meters of itself rather than of one target: they carry no {@code target} tag, so a
   * dashboard cannot filter them by target.
   */
  static final Set<MeterDefinition> DAEMON_WIDE =
      Set.of(
          SentinelMetric.SENTINEL_NOTIFICATIONS,
          SentinelMetric.SENTINEL_NOTIFICATION_QUEUE,
          SentinelMetric.SENTINEL_DOGSTATSD_ERRORS,
          SentinelMetric.SENTINEL_TARGETS,
          SentinelMetric.SENTINEL_TARGETS_SKIPPED,
          SentinelMetric.SENTINEL_HTTP_AUTH_FAILURES);

  private static final List<String> TIMER_SERIES = List.of("_count", "_sum", "_max");
  private static final List<String> DOGSTATSD_HISTOGRAM =
      // What DogStatsdPublisher sends for a timer: count and sum as counts, max as a gauge.
      List.of(".count", ".max", ".sum");

  private CatalogNames() {}

  /**
   * The Prometheus name of a catalog entry, as the simpleclient registry exports it; also what
   * docs/metrics.md lists (MetricsDocTest).
   */
  public static String prometheusName(MeterDefinition metric) {
    Meter.Type type =
        switch (metric.kind()) {
          case GAUGE -> Meter.Type.GAUGE;
          case COUNTER -> Meter.Type.COUNTER;
          case TIMER -> Meter.Type.TIMER;
        };
    return PROMETHEUS.name(metric.meterName(), type, metric.baseUnit());
  }

  /** Every Prometheus series name the catalog can produce, with the entry it comes from. */
  static Map<String, MeterDefinition> prometheusSeries() {
    Map<String, MeterDefinition> names = new LinkedHashMap<>();
    for (MeterDefinition metric : Catalog.everyMeter()) {
      String name = prometheusName(metric);
      if (metric.kind() == MeterKind.TIMER) {
        TIMER_SERIES.forEach(suffix -> names.put(name + suffix, metric));
      } else {
        names.put(name, metric);
      }
    }
    return names;
  }

  /** Every Datadog metric name the catalog can produce over DogStatsD. */
  static Map<String, MeterDefinition> datadogMetrics() {
    Map<String, MeterDefinition> names = new LinkedHashMap<>();
    for (MeterDefinition metric : Catalog.everyMeter()) {
      if (metric.kind() == MeterKind.TIMER) {
        DOGSTATSD_HISTOGRAM.forEach(suffix -> names.put(metric.meterName() + suffix, metric));
      } else {
        names.put(metric.meterName(), metric);
      }
    }
    return names;
  }
}
