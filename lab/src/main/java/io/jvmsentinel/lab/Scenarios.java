package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The one explicit list of lab scenarios: add new ones here. */
public final class Scenarios {

  private static final Map<String, Function<LabOptions, Scenario>> FACTORIES =
      new LinkedHashMap<>();

  static {
    register("idle", IdleScenario::new);
    register("healthy", HealthyScenario::new);
    register("thread-per-request", ThreadPerRequestScenario::new);
    register("thread-burst", ThreadBurstScenario::new);
    register("tls-listener-storm", TlsListenerStormScenario::new);
    register("tls-full-handshakes", TlsFullHandshakesScenario::new);
    register("tls-resumed", TlsResumedScenario::new);
    register("tls-reconnect-wave", TlsReconnectWaveScenario::new);
    register("codecache-churn", CodeCacheChurnScenario::new);
    register("codecache-full", CodeCacheFullScenario::new);
    register("deopt-storm", DeoptStormScenario::new);
    register("spread-deopt-storm", SpreadDeoptStormScenario::new);
    register("callsite-storm", CallSiteStormScenario::new);
    register("gc-pressure", GcPressureScenario::new);
    register("gc-freeze", GcFreezeScenario::new);
    register("mixed", MixedScenario::new);
    register("storm-after-storm", StormAfterStormScenario::new);
    register("feature-after-warmup", FeatureAfterWarmupScenario::new);
    register("churn-from-boot", ChurnFromBootScenario::new);
    register("codebase-churn", CodeBaseChurnScenario::new);
    register("classloader-churn", ClassLoaderChurnScenario::new);
    register("pool-start", PoolStartScenario::new);
    register("gc-at-startup", GcAtStartupScenario::new);
    register("batch-thread-bursts", BatchThreadBurstsScenario::new);
    register("batch-gc-burst", BatchGcBurstScenario::new);
    register("virtual-threads", VirtualThreadsScenario::new);
    register("plugin-reload", PluginReloadScenario::new);
    register("lock-refresh-burst", LockRefreshBurstScenario::new);
    register("new-message-type", NewMessageTypeScenario::new);
    register("periodic-full-gc", PeriodicFullGcScenario::new);
    register("cpu-saturation", CpuSaturationScenario::new);
    register("jmx-outage", JmxOutageScenario::new);
    register("hostile-names", HostileNamesScenario::new);
    register("hostile-text", options -> new HostileTextScenario());
    register("hostile-frames", HostileFramesScenario::new);
    register("hostile-events", HostileEventsScenario::new);
    register(
        "hostile-reply-class",
        options -> new HostileReplyScenario(HostileReplyScenario.Reply.UNEXPECTED_CLASS));
    register(
        "hostile-reply-array",
        options -> new HostileReplyScenario(HostileReplyScenario.Reply.OVERSIZED_ARRAY));
    register(
        "hostile-reply-hang",
        options -> new HostileReplyScenario(HostileReplyScenario.Reply.NEVER));
    register("lock-contention", LockContentionScenario::new);
    register("incidents-at-once", IncidentsAtOnceScenario::new);
    register("bench", BenchScenario::new);
    register("storm-then-bursts", Sequences::stormThenBursts);
    register("tls-storm-then-wave", Sequences::tlsStormThenWave);
    register("storm-during-contention", Sequences::stormDuringContention);
    register("gc-during-churn", Sequences::gcDuringChurn);
    register("deopt-then-new-code", Sequences::deoptThenNewCode);
    register("storm-flaps-then-recurs", Sequences::stormFlapsThenRecurs);
  }

  private Scenarios() {}

  private static void register(String name, Function<LabOptions, Scenario> factory) {
    FACTORIES.put(name, factory);
  }

  /** Scenario names in registration order. */
  public static List<String> names() {
    return Collections.unmodifiableList(new ArrayList<>(FACTORIES.keySet()));
  }

  /** Creates the scenario named by {@code options.scenario()}, if there is one. */
  public static Optional<Scenario> create(LabOptions options) {
    Function<LabOptions, Scenario> factory = FACTORIES.get(options.scenario());
    return factory == null ? Optional.empty() : Optional.of(factory.apply(options));
  }

  /** Usage text listing every scenario with its description. */
  public static String usage() {
    StringBuilder text =
        new StringBuilder(
            "usage: java io.jvmsentinel.lab.LabMain SCENARIO [--rate N] [--threads N]"
                + " [--duration D] [--delay D] [--warmup D] [--phase D] [--pause D]\n"
                + "  D is 500ms, 5s, 2m, 1h or ISO-8601 (PT5S)\nscenarios:\n");
    for (Map.Entry<String, String> scenario : descriptions().entrySet()) {
      text.append(String.format("  %-20s %s%n", scenario.getKey(), scenario.getValue()));
    }
    return text.toString();
  }

  /** Each scenario's one-line description by name, in registration order. */
  public static Map<String, String> descriptions() {
    Map<String, String> descriptions = new LinkedHashMap<>();
    FACTORIES.forEach(
        (name, factory) ->
            descriptions.put(name, factory.apply(LabOptions.defaults(name)).description()));
    return Collections.unmodifiableMap(descriptions);
  }
}
