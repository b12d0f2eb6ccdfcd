package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The rules that span keys or targets, with defaults applied. Values that could not be read at all
 * were reported by the YAML reader and are skipped here.
 */
final class ConfigValidator {
  private final Problems problems;
  private final Function<String, String> env;

  ConfigValidator(Problems problems, Function<String, String> env) {
    this.problems = problems;
    this.env = env;
  }

  SentinelConfig validate(
      ConfigDocument doc,
      List<TargetSource> sources,
      Optional<HostPort> listenOverride,
      boolean targetsGiven,
      Optional<LocalDiscoveryConfig> discoveryOverride,
      boolean kubernetesWanted,
      Path baseDir) {
    HostPort listen =
        listenOverride
            .or(() -> Optional.ofNullable(doc.http()).map(ConfigDocument.Http::listen))
            .orElse(HttpConfig.DEFAULT_LISTEN);
    Map<String, String> tags = Optional.ofNullable(doc.tags()).orElse(Map.of());
    List<String> unreadableTags =
        tags.keySet().stream().filter(k -> problems.unreadable("tags." + k)).toList();
    TagRules.check(tags, "'tags'", unreadableTags, problems::add);
    ConnectionConfig connection = connection(doc.connection());

    PasswordReader secrets = new PasswordReader(env);
    AlertsConfig alerts = new AlertsValidator(problems, secrets, baseDir).validate(doc.alerts());
    TargetValidator one =
        new TargetValidator(problems, secrets, tags, PodIdentity.fromEnvironment(env));
    List<TargetConfig> targets = new ArrayList<>();
    for (TargetSource source : sources) {
      one.validate(source).ifPresent(targets::add);
    }
    // Empty entries have their own problem; comparing their (absent) tags would add noise.
    List<TargetSource> written =
        sources.stream().filter(s -> !s.raw().equals(ConfigDocument.EMPTY_TARGET)).toList();
    checkUniqueNames(written);
    // The file's section is checked even when the command line replaces it.
    Optional<LocalDiscoveryConfig> fileDiscovery =
        new DiscoveryValidator(problems).validate(doc.discovery());
    Optional<LocalDiscoveryConfig> discovery = discoveryOverride.or(() -> fileDiscovery);
    Optional<KubernetesDiscoveryConfig> kubernetes =
        new KubernetesDiscoveryValidator(problems, env, secrets, tags, baseDir)
            .validate(doc.discovery(), kubernetesWanted);
    // Only when none was written: a target that was written but is broken has its own problem.
    if (!targetsGiven
        && discovery.isEmpty()
        && kubernetes.isEmpty()
        && !problems.unreadable("targets")) {
      problems.add(
          "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }
    DetectionConfig detection =
        new DetectionValidator(problems)
            .validate(
                doc.detection(),
                targets.stream()
                    .map(TargetConfig::name)
                    .collect(java.util.stream.Collectors.toSet()));
    DatadogConfig datadog = new DatadogValidator(problems, env).validate(doc.datadog(), tags);
    HttpConfig http =
        new HttpValidator(problems, new SecretKeys(problems, secrets, baseDir))
            .validate(doc.http(), listen);
    OtlpConfig otlp =
        new OtlpValidator(problems, env, new SecretKeys(problems, secrets, baseDir))
            .validate(doc.otlp());
    return new SentinelConfig(
        http,
        tags,
        connection,
        jfr(doc.jfr()),
        alerts,
        detection,
        new StorageValidator(problems).validate(doc.storage()),
        datadog,
        otlp,
        discovery,
        kubernetes,
        maxTargets(doc.discovery()),
        targets);
  }

  private int maxTargets(ConfigDocument.Discovery raw) {
    if (raw == null || raw.maxTargets() == null) {
      return SentinelConfig.DEFAULT_MAX_TARGETS;
    }
    if (raw.maxTargets() < 1 || raw.maxTargets() > SentinelConfig.MAX_MAX_TARGETS) {
      problems.add(
          "'discovery.maxTargets' ("
              + raw.maxTargets()
              + ") must be between 1 and "
              + SentinelConfig.MAX_MAX_TARGETS
              + "; beyond that, split the JVMs between daemons with complementary filters");
      return SentinelConfig.DEFAULT_MAX_TARGETS;
    }
    return raw.maxTargets().intValue();
  }

  private ConnectionConfig connection(ConfigDocument.Connection raw) {
    ConnectionConfig d = ConnectionConfig.DEFAULT;
    if (raw == null) {
      return d;
    }
    ConnectionConfig c =
        new ConnectionConfig(
            or(raw.connectTimeout(), d.connectTimeout()),
            or(raw.callTimeout(), d.callTimeout()),
            or(raw.reconnectInitialDelay(), d.reconnectInitialDelay()),
            or(raw.reconnectMaxDelay(), d.reconnectMaxDelay()));
    positive("connectTimeout", c.connectTimeout());
    positive("callTimeout", c.callTimeout());
    positive("reconnectInitialDelay", c.reconnectInitialDelay());
    positive("reconnectMaxDelay", c.reconnectMaxDelay());
    if (c.reconnectMaxDelay().compareTo(c.reconnectInitialDelay()) < 0) {
      problems.add(
          "'connection.reconnectMaxDelay' ("
              + Durations.format(c.reconnectMaxDelay())
              + ") must not be less than 'connection.reconnectInitialDelay' ("
              + Durations.format(c.reconnectInitialDelay())
              + ")");
    }
    return c;
  }

  private JfrConfig jfr(ConfigDocument.Jfr raw) {
    JfrConfig d = JfrConfig.DEFAULT;
    if (raw == null) {
      return d;
    }
    JfrConfig c =
        new JfrConfig(
            raw.enabled() != null ? raw.enabled() : d.enabled(),
            or(raw.maxAge(), d.maxAge()),
            raw.maxSizeMb() != null ? raw.maxSizeMb() : d.maxSizeMb(),
            or(raw.stallTimeout(), d.stallTimeout()),
            or(raw.maxLag(), d.maxLag()),
            raw.stackSamplingAboveRate() != null
                ? raw.stackSamplingAboveRate()
                : d.stackSamplingAboveRate(),
            or(raw.stackSamplingWindow(), d.stackSamplingWindow()),
            or(raw.stackSamplingEvery(), d.stackSamplingEvery()),
            raw.stormPauseAboveRate() != null ? raw.stormPauseAboveRate() : d.stormPauseAboveRate(),
            or(raw.stormPauseCapture(), d.stormPauseCapture()),
            or(raw.stormPauseProbeEvery(), d.stormPauseProbeEvery()),
            or(raw.simulatedEventCost(), d.simulatedEventCost()),
            feed(raw.feed()),
            or(raw.chunkPeriod(), d.chunkPeriod()));
    if (c.maxAge().compareTo(JfrConfig.MIN_MAX_AGE) < 0) {
      problems.add(
          "'jfr.maxAge' ("
              + Durations.format(c.maxAge())
              + ") must be at least "
              + Durations.format(JfrConfig.MIN_MAX_AGE));
    }
    if (c.maxSizeMb() < JfrConfig.MIN_MAX_SIZE_MB || c.maxSizeMb() > JfrConfig.MAX_MAX_SIZE_MB) {
      problems.add(
          "'jfr.maxSizeMb' ("
              + c.maxSizeMb()
              + ") must be between "
              + JfrConfig.MIN_MAX_SIZE_MB
              + " and "
              + JfrConfig.MAX_MAX_SIZE_MB);
    }
    if (c.stallTimeout().compareTo(JfrConfig.MIN_STALL_TIMEOUT) < 0) {
      problems.add(
          "'jfr.stallTimeout' ("
              + Durations.format(c.stallTimeout())
              + ") must be at least "
              + Durations.format(JfrConfig.MIN_STALL_TIMEOUT)
              + " (the target flushes events about once a second)");
    }
    if (c.chunkPeriod().compareTo(JfrConfig.MIN_CHUNK_PERIOD) < 0
        || c.chunkPeriod().compareTo(JfrConfig.MAX_CHUNK_PERIOD) > 0) {
      problems.add(
          "'jfr.chunkPeriod' ("
              + Durations.format(c.chunkPeriod())
              + ") must be between "
              + Durations.format(JfrConfig.MIN_CHUNK_PERIOD)
              + " (each read ends a chunk on the target) and "
              + Durations.format(JfrConfig.MAX_CHUNK_PERIOD)
              + " (events would reach the rules too late)");
    }
    overload(c);
    stormPause(c);
    return c;
  }

  private JfrConfig.Feed feed(String raw) {
    if (raw == null) {
      return JfrConfig.DEFAULT.feed();
    }
    for (JfrConfig.Feed feed : JfrConfig.Feed.values()) {
      if (feed.name().equalsIgnoreCase(raw)) {
        return feed;
      }
    }
    problems.add(
        "'jfr.feed' must be 'auto' (a stream from JDK 16+ targets, chunks read over JMX from older"
            + " ones), 'stream' or 'chunks', got '"
            + raw
            + "'");
    return JfrConfig.DEFAULT.feed();
  }

  private void stormPause(JfrConfig c) {
    if (!(c.stormPauseAboveRate() >= 0) || Double.isInfinite(c.stormPauseAboveRate())) {
      problems.add(
          "'jfr.stormPauseAboveRate' ("
              + c.stormPauseAboveRate()
              + ") must be a thread start rate of 0 or more per second (0 never pauses)");
    }
    if (c.stormPauseCapture().compareTo(JfrConfig.MIN_STORM_PAUSE_CAPTURE) < 0) {
      problems.add(
          "'jfr.stormPauseCapture' ("
              + Durations.format(c.stormPauseCapture())
              + ") must be at least "
              + Durations.format(JfrConfig.MIN_STORM_PAUSE_CAPTURE)
              + " (the stream must run long enough for the storm to be detected and its creator"
              + " named)");
    }
    if (c.stormPauseProbeEvery().compareTo(c.stormPauseCapture().multipliedBy(4)) < 0) {
      problems.add(
          "'jfr.stormPauseProbeEvery' ("
              + Durations.format(c.stormPauseProbeEvery())
              + ") must be at least four times 'jfr.stormPauseCapture' ("
              + Durations.format(c.stormPauseCapture())
              + "), or the pause would spare the target little");
    }
  }

  private void overload(JfrConfig c) {
    if (c.maxLag().compareTo(JfrConfig.MIN_MAX_LAG) < 0) {
      problems.add(
          "'jfr.maxLag' ("
              + Durations.format(c.maxLag())
              + ") must be at least "
              + Durations.format(JfrConfig.MIN_MAX_LAG)
              + " (events reach a remote stream up to about 2.6 s after they happen, so a smaller"
              + " bound would drop events even when the daemon keeps up)");
    }
    if (!(c.stackSamplingAboveRate() >= 0) || Double.isInfinite(c.stackSamplingAboveRate())) {
      problems.add(
          "'jfr.stackSamplingAboveRate' ("
              + c.stackSamplingAboveRate()
              + ") must be a thread start rate of 0 or more per second (0 records stacks always)");
    }
    if (c.stackSamplingWindow().compareTo(JfrConfig.MIN_SAMPLING_WINDOW) < 0) {
      problems.add(
          "'jfr.stackSamplingWindow' ("
              + Durations.format(c.stackSamplingWindow())
              + ") must be at least "
              + Durations.format(JfrConfig.MIN_SAMPLING_WINDOW)
              + " (the daemon switches settings once a second)");
    }
    if (c.stackSamplingEvery().compareTo(c.stackSamplingWindow().multipliedBy(2)) < 0) {
      problems.add(
          "'jfr.stackSamplingEvery' ("
              + Durations.format(c.stackSamplingEvery())
              + ") must be at least twice 'jfr.stackSamplingWindow' ("
              + Durations.format(c.stackSamplingWindow())
              + "), or sampling would save nothing");
    }
    if (c.simulatedEventCost().compareTo(JfrConfig.MAX_SIMULATED_EVENT_COST) > 0) {
      problems.add(
          "'jfr.simulatedEventCost' ("
              + Durations.format(c.simulatedEventCost())
              + ") must be at most "
              + Durations.format(JfrConfig.MAX_SIMULATED_EVENT_COST)
              + " (it exists only to measure overload behaviour)");
    }
  }

  private void positive(String key, Duration value) {
    if (value.isZero()) {
      problems.add("'connection." + key + "' must be greater than 0s");
    }
  }

  private static Duration or(Duration value, Duration fallback) {
    return value != null ? value : fallback;
  }

  private void checkUniqueNames(List<TargetSource> sources) {
    Map<String, TargetSource> firstByName = new HashMap<>();
    for (TargetSource source : sources) {
      String name = source.raw().name();
      if (name == null) {
        continue;
      }
      TargetSource first = firstByName.putIfAbsent(name, source);
      if (first != null) {
        problems.add(
            TargetValidator.label(source)
                + ": duplicate name; "
                + first.where()
                + " is already called '"
                + name
                + "'");
      }
    }
  }
}
