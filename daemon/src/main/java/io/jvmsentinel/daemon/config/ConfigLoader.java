package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Builds the {@link SentinelConfig} from the YAML file and the command line, or explains in one
 * {@link ConfigException} everything that is wrong with them.
 *
 * <p>Passwords are read here, at load time, from the environment variables or files the
 * configuration names. The environment is a function so tests do not need real variables.
 */
public final class ConfigLoader {
  private final Function<String, String> env;

  /** Reads passwords from the real process environment. */
  public ConfigLoader() {
    this(System::getenv);
  }

  /**
   * @param env looks up an environment variable; returns null when it is not set
   */
  public ConfigLoader(Function<String, String> env) {
    this.env = env;
  }

  /** Loads a configuration file on its own. */
  public SentinelConfig load(Path file) throws ConfigException {
    return load(Optional.of(file), CliOverrides.NONE);
  }

  /**
   * Loads the file, if any, then applies the command line: its targets are appended to the file's
   * (named {@code host-port} or {@code pid-N}, or after the pod) and its listen address replaces
   * {@code http.listen}. In a pod (the {@link PodIdentity} variables set), a target without a name
   * is named after the pod.
   */
  public SentinelConfig load(Optional<Path> file, CliOverrides cli) throws ConfigException {
    Problems problems = new Problems();
    Optional<Node> yaml = Optional.empty();
    Path baseDir = Path.of("");
    if (file.isPresent()) {
      yaml = ConfigYaml.read(file.get(), problems);
      if (yaml.isEmpty()) {
        problems.throwIfAny(); // nothing usable was read; always at least one problem here
      }
      // Relative secret file paths start at the config file, not at the daemon's working dir.
      Path parent = file.get().toAbsolutePath().getParent();
      baseDir = parent != null ? parent : baseDir;
    }
    ConfigNode.Reading reading =
        new ConfigNode.Reading(file.map(Path::toString).orElse(""), problems, env, baseDir);
    ConfigNode root = new ConfigNode(reading, "", yaml.orElse(null)).section();
    if (problems.unreadableAt("")) {
      problems.throwIfAny(); // the document is not a map: nothing else to read
    }
    SentinelConfig config = read(root, cli);
    reading.reportUnknownKeys();
    problems.throwIfAny();
    return config;
  }

  /**
   * Reads every section (problems of the file first, in file order), then checks the rules across
   * sections and targets, in the order the messages have always come in.
   */
  private SentinelConfig read(ConfigNode root, CliOverrides cli) {
    Problems problems = root.reading.problems;
    ConfigNode http = root.section("http");
    HostPort fileListen = http.child("listen").hostPort();
    Map<String, String> tags = Optional.ofNullable(root.texts("tags")).orElse(Map.of());
    ConfigNode connection = root.section("connection");
    ConfigNode jfr = root.section("jfr");
    ConfigNode alerts = root.section("alerts");
    ConfigNode detection = root.section("detection");
    ConfigNode storage = root.section("storage");
    ConfigNode datadog = root.section("datadog");
    ConfigNode otlp = root.section("otlp");
    ConfigNode discovery = root.section("discovery");
    ConfigNode local = discovery.section("local");
    ConfigNode kubernetes = discovery.section("kubernetes");
    Long maxTargets = discovery.integer("maxTargets");
    List<ConfigNode> written = root.listOf("targets", entry -> entry);

    boolean targetsGiven =
        (written != null && !written.isEmpty())
            || !cli.targets().isEmpty()
            || !cli.pids().isEmpty();
    PodIdentity pod = PodIdentity.fromEnvironment(env);
    List<TargetSource> sources = new ArrayList<>();
    for (ConfigNode entry : written == null ? List.<ConfigNode>of() : written) {
      TargetSource.read(entry).ifPresent(sources::add);
    }
    sources.addAll(CliTargets.from(cli, root.reading, pod));
    sources = PodNames.named(sources, pod);
    Optional<HostPort> listenOverride = CliTargets.listen(cli, problems);

    HostPort listen =
        listenOverride.or(() -> Optional.ofNullable(fileListen)).orElse(HttpConfig.DEFAULT_LISTEN);
    List<String> unreadableTags =
        tags.keySet().stream().filter(k -> root.unreadable("tags." + k)).toList();
    TagRules.check(tags, "'tags'", unreadableTags, problems::add);
    ConnectionConfig connectionConfig = ConnectionConfig.read(connection);
    AlertsConfig alertsConfig = AlertsConfig.read(alerts);
    List<TargetConfig> targets = new ArrayList<>();
    for (TargetSource source : sources) {
      source.toConfig(tags, pod).ifPresent(targets::add);
    }
    // Empty entries have their own problem; comparing their (absent) names would add noise.
    checkUniqueNames(sources.stream().filter(s -> !s.empty()).toList(), problems);
    // The file's section is checked even when the command line replaces it.
    Optional<LocalDiscoveryConfig> fileDiscovery = LocalDiscoveryConfig.read(local);
    Optional<LocalDiscoveryConfig> localDiscovery = cli.discovery().or(() -> fileDiscovery);
    Optional<KubernetesDiscoveryConfig> kubernetesDiscovery =
        KubernetesDiscoveryConfig.read(kubernetes, cli.kubernetes(), tags);
    // Only when none was written: a target that was written but is broken has its own problem.
    if (!targetsGiven
        && localDiscovery.isEmpty()
        && kubernetesDiscovery.isEmpty()
        && !problems.unreadable("targets")) {
      problems.add(
          "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }
    // Every declared name, also of a target with a problem of its own: its overrides are no
    // second problem.
    DetectionConfig detectionConfig =
        DetectionConfig.read(
            detection,
            sources.stream()
                .map(TargetSource::name)
                .filter(Objects::nonNull)
                .collect(Collectors.toSet()));
    DatadogConfig datadogConfig = DatadogConfig.read(datadog, tags);
    HttpConfig httpConfig = HttpConfig.read(http, listen);
    OtlpConfig otlpConfig = OtlpConfig.read(otlp);
    JfrConfig jfrConfig = JfrConfig.read(jfr);
    StorageConfig storageConfig = StorageConfig.read(storage);
    int targetLimit = SentinelConfig.DEFAULT_MAX_TARGETS;
    if (maxTargets != null
        && discovery.between(
            "maxTargets",
            maxTargets,
            1,
            SentinelConfig.MAX_MAX_TARGETS,
            "; beyond that, split the JVMs between daemons with complementary filters")) {
      targetLimit = maxTargets.intValue();
    }
    return new SentinelConfig(
        httpConfig,
        tags,
        connectionConfig,
        jfrConfig,
        alertsConfig,
        detectionConfig,
        storageConfig,
        datadogConfig,
        otlpConfig,
        localDiscovery,
        kubernetesDiscovery,
        targetLimit,
        targets);
  }

  private static void checkUniqueNames(List<TargetSource> sources, Problems problems) {
    Map<String, TargetSource> firstByName = new HashMap<>();
    for (TargetSource source : sources) {
      if (source.name() == null) {
        continue;
      }
      TargetSource first = firstByName.putIfAbsent(source.name(), source);
      if (first != null) {
        problems.add(
            source.label()
                + ": duplicate name; "
                + first.where()
                + " is already called '"
                + source.name()
                + "'");
      }
    }
  }
}
