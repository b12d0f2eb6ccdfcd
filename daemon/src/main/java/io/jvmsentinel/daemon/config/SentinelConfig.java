package io.jvmsentinel.daemon.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The whole, validated configuration of the daemon. Build it with {@link ConfigLoader}.
 *
 * @param http the metrics endpoint
 * @param tags common tags added to every series of every target
 * @param connection connection settings shared by all targets
 * @param jfr JFR streaming settings shared by all targets
 * @param alerts where alert notifications are delivered, and how
 * @param detection how often rules run, warm-up, evidence snapshots and threshold overrides
 * @param storage the one disk budget of JFR feeds and evidence snapshots, and the dump limit
 * @param datadog metrics and alerts to a Datadog Agent over DogStatsD; disabled by default
 * @param otlp metrics pushed over OTLP/HTTP; disabled by default
 * @param localDiscovery the host's JVMs to find and watch at run time; empty when off
 * @param kubernetesDiscovery the annotated pods to find and watch at run time; empty when off
 * @param maxTargets how many targets run at once over all sources, fixed ones first
 * @param targets fixed targets (at least one unless discovering), names unique; tag keys may differ
 *     (see {@link #tagKeys()})
 */
public record SentinelConfig(
    HttpConfig http,
    Map<String, String> tags,
    ConnectionConfig connection,
    JfrConfig jfr,
    AlertsConfig alerts,
    DetectionConfig detection,
    StorageConfig storage,
    DatadogConfig datadog,
    OtlpConfig otlp,
    Optional<LocalDiscoveryConfig> localDiscovery,
    Optional<KubernetesDiscoveryConfig> kubernetesDiscovery,
    int maxTargets,
    List<TargetConfig> targets) {
  /**
   * Targets at once unless {@code discovery.maxTargets} says: above a node's JVMs, below a
   * cluster's.
   */
  public static final int DEFAULT_MAX_TARGETS = 100;

  public static final int MAX_MAX_TARGETS = 2000;

  public SentinelConfig {
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    targets = List.copyOf(targets);
  }

  /** The tag keys of every target's series: the fixed targets' and the discovery providers'. */
  public TargetTagKeys tagKeys() {
    return TargetTagKeys.of(
        targets,
        Stream.concat(
                localDiscovery.map(local -> LocalDiscoveryConfig.TAG_KEYS).stream(),
                kubernetesDiscovery.map(KubernetesDiscoveryConfig::tagKeys).stream())
            .toList());
  }
}
