package io.jvmsentinel.daemon.catalog;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.collectors.catalog.Metric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Every meter the daemon can export: the collectors' catalog, then the daemon's own. */
public final class Catalog {
  private Catalog() {}

  public static List<MeterDefinition> everyMeter() {
    List<MeterDefinition> all = new ArrayList<>(Arrays.asList(Metric.values()));
    all.addAll(Arrays.asList(SentinelMetric.values()));
    return List.copyOf(all);
  }
}
