package io.jvmsentinel.daemon.observability;

import static java.util.Map.entry;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import java.util.List;
import java.util.Map;

/**
 * What an SRE paged by a detection rule looks at on a dashboard: the exported meters that show the
 * rule's signal (the inputs it judges, as the catalog exports them). Every rule of {@code
 * Rules.all()} must have an entry, so a new rule cannot ship without saying which charts show it;
 * ObservabilityCatalogTest then demands each meter on the Grafana and the Datadog dashboard, and
 * the rule's runbook to name a panel that charts one of them.
 */
final class RuleSignals {
  private RuleSignals() {}

  static final Map<String, List<MeterDefinition>> BY_RULE =
      Map.ofEntries(
          entry(
              "ThreadStorm",
              List.of(Metric.JVM_THREADS_STARTED, Metric.JVM_THREADS_STARTED_BY_SITE)),
          entry("CodeCacheNearFull", List.of(Metric.JVM_MEMORY_USED, Metric.JVM_MEMORY_MAX)),
          entry(
              "CodeCacheFull",
              List.of(Metric.JVM_CODECACHE_FULL, Metric.JVM_JIT_COMPILATION_ENABLED)),
          entry(
              "CodeCacheChurn",
              List.of(
                  Metric.JVM_JIT_RECOMPILATIONS,
                  Metric.JVM_CODECACHE_SWEEPER_RECLAIMED,
                  Metric.JVM_MEMORY_USED,
                  SentinelMetric.SENTINEL_TARGET_WARMING_UP)),
          entry(
              "ClassLoaderChurn",
              List.of(
                  Metric.JVM_JIT_RECOMPILATIONS,
                  Metric.JVM_JIT_COMPILATIONS,
                  Metric.JVM_CLASSES_LOADS,
                  Metric.JVM_CLASSES_UNLOADED)),
          entry(
              "CompilerCpuHigh",
              List.of(
                  Metric.JVM_JIT_COMPILER_CPU_TIME,
                  Metric.PROCESS_CPU_TIME,
                  SentinelMetric.SENTINEL_TARGET_WARMING_UP)),
          entry(
              "DeoptimizationStorm",
              List.of(
                  Metric.JVM_JIT_DEOPTIMIZATIONS,
                  Metric.JVM_JIT_RECOMPILATIONS_DISCARDED,
                  SentinelMetric.SENTINEL_TARGET_WARMING_UP)),
          entry("GcOverhead", List.of(Metric.JVM_GC_PAUSE)),
          entry(
              "TlsHandshakeStorm",
              List.of(Metric.JVM_TLS_HANDSHAKES, Metric.JVM_TLS_HANDSHAKES_FULL)),
          // JFR targets: blocked time per lock class; JMX-only targets: BLOCKED thread states.
          entry(
              "LockContention", List.of(Metric.JVM_THREADS_CONTENTION, Metric.JVM_THREADS_STATES)),
          entry(
              "TargetDown",
              List.of(
                  SentinelMetric.SENTINEL_TARGET_UP, SentinelMetric.SENTINEL_CONNECTION_FAILURES)));
}
