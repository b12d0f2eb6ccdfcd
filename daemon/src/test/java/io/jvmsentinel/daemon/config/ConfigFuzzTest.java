package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.jvmsentinel.daemon.testing.Jdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Generated configurations, mutated from the valid examples: wrong types, unknown keys, values out
 * of range, truncated files and binary junk. Whatever the input, the loader either returns a
 * configuration or throws the documented {@link ConfigException} with readable problems; nothing
 * else escapes. Deterministic: each case's seed is in the failure message.
 */
class ConfigFuzzTest {
  private static final int CASES_PER_SEED_FILE = 400;
  private static final long SEED = 20261122L;

  /** A complete valid configuration, every section set, beside the deploy examples. */
  private static final String EVERY_SECTION =
      """
      http:
        listen: 127.0.0.1:9404
      connection:
        connectTimeout: 2s
        callTimeout: 2s
        reconnectInitialDelay: 300ms
        reconnectMaxDelay: 30s
      jfr:
        enabled: true
        maxAge: 5m
        maxSizeMb: 32
      alerts:
        queueSize: 100
        retryInitialDelay: 1s
        retryMaxDelay: 1m
        httpTimeout: 5s
        stateFile: alerts.json
        restoreGrace: 30s
        sinks:
          webhook:
            url: https://hooks.example.com/a
            headers: {X-Team: jvm}
          alertmanager:
            urls: [http://am-0:9093, http://am-1:9093]
      otlp:
        enabled: true
        endpoint: http://collector:4318/v1/metrics
        step: 30s
        headers:
          X-Tenant: {value: jvm}
          Authorization: {valueEnv: OTLP_AUTH}
        resourceAttributes: {service.name: orders}
      targets:
        - name: orders
          jmx: 127.0.0.1:9010
          pollInterval: 10s
          tags: {app: orders}
        - name: local
          pid: 4242
          tags: {app: local}
      """;

  @TempDir Path dir;
  // Every secret variable is set; the pod identity ones are not (no sidecar here).
  private final ConfigLoader loader =
      new ConfigLoader(
          name ->
              name.startsWith("JVM_SENTINEL_POD_")
                      || name.equals("JVM_SENTINEL_CONTAINER_NAME")
                      || name.equals("JVM_SENTINEL_NODE_NAME")
                  ? null
                  : "https://hooks.example.com/x");

  @Test
  void mutatedConfigurationsOnlyEverFailWithAConfigException() throws Exception {
    List<String> seeds = seedFiles();
    assertThat(seeds).hasSizeGreaterThanOrEqualTo(4);
    int accepted = 0;
    int rejected = 0;
    for (int file = 0; file < seeds.size(); file++) {
      for (int i = 0; i < CASES_PER_SEED_FILE; i++) {
        long seed = SEED + file * 100_000L + i;
        byte[] input = mutate(seeds.get(file), new Random(seed));
        if (load(input, "file " + file + " seed " + seed)) {
          accepted++;
        } else {
          rejected++;
        }
      }
    }
    System.out.printf("config fuzz: %d accepted, %d rejected%n", accepted, rejected);
    // Both outcomes occur, so the mutations are neither all harmless nor all fatal.
    assertThat(accepted).isPositive();
    assertThat(rejected).isPositive();
  }

  @Test
  void randomBytesAndEmptyFilesAreRejectedCleanly() throws Exception {
    Random random = new Random(SEED);
    for (int i = 0; i < 300; i++) {
      byte[] junk = new byte[random.nextInt(2048)];
      random.nextBytes(junk);
      load(junk, "junk " + i);
    }
    load(new byte[0], "empty");
    load("\uFEFF".getBytes(StandardCharsets.UTF_8), "byte order mark only");
    load("---\n...\n".getBytes(StandardCharsets.UTF_8), "empty document");
    load("a: &a [*a]\n".getBytes(StandardCharsets.UTF_8), "self-referencing alias");
  }

  /** Loads the bytes as a config file; true if accepted. Fails on any other exception. */
  private boolean load(byte[] input, String label) throws Exception {
    Path file = dir.resolve("fuzz.yaml");
    Files.write(file, input);
    try {
      SentinelConfig config = loader.load(file);
      keepsItsPromises(config, label);
      return true;
    } catch (ConfigException e) {
      assertThat(e.problems()).as(label).isNotEmpty().allSatisfy(p -> assertThat(p).isNotBlank());
      return false;
    } catch (Throwable t) {
      String text = new String(input, StandardCharsets.UTF_8);
      fail(
          label
              + ": "
              + t
              + " escaped the loader for input:\n"
              + (text.length() > 4000 ? text.substring(0, 4000) + "..." : text),
          t);
      return false;
    }
  }

  @Test
  void theUnmutatedExampleIsReadAsWritten() throws Exception {
    Path file = dir.resolve("every-section.yaml");
    Files.writeString(file, EVERY_SECTION);
    SentinelConfig config = loader.load(file);

    keepsItsPromises(config, "every section");
    assertThat(config.targets()).extracting(TargetConfig::name).containsExactly("orders", "local");
    assertThat(config.targets().get(0).pollInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.targets().get(1).address()).isEqualTo(new PidAddress(4242));
    assertThat(config.connection().callTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.connection().reconnectInitialDelay()).isEqualTo(Duration.ofMillis(300));
    assertThat(config.jfr().maxSizeMb()).isEqualTo(32);
    assertThat(config.http().listen()).isEqualTo(new HostPort("127.0.0.1", 9404));
    assertThat(config.targets().get(1).tags()).isEqualTo(java.util.Map.of("app", "local"));
  }

  /**
   * What the loader promises of any configuration it accepts, however mangled the input: the
   * validation rules hold, so the daemon never starts on a value it would misbehave with.
   */
  private static void keepsItsPromises(SentinelConfig config, String label) {
    boolean discovers =
        config.localDiscovery().isPresent() || config.kubernetesDiscovery().isPresent();
    assertThat(!config.targets().isEmpty() || discovers)
        .as(label + ": targets or discovery")
        .isTrue();
    config
        .kubernetesDiscovery()
        .ifPresent(
            k8s -> {
              assertThat(k8s.pollInterval()).as(label + ": k8s pollInterval").isPositive();
              assertThat(k8s.requestTimeout()).as(label + ": k8s requestTimeout").isPositive();
              assertThat(k8s.connectTimeout()).as(label + ": k8s connectTimeout").isPositive();
              assertThat(k8s.annotationPrefix()).as(label + ": k8s prefix").endsWith("/");
            });
    assertThat(config.targets())
        .as(label + ": target names, unique and not blank")
        .extracting(TargetConfig::name)
        .doesNotHaveDuplicates()
        .allSatisfy(name -> assertThat(name).isNotBlank());
    // Targets may differ in tag keys; completed, every target's series carry one key set.
    TargetTagKeys keys = config.tagKeys();
    assertThat(keys.unknown(config.targets())).as(label + ": every tag key known").isEmpty();
    for (TargetConfig target : config.targets()) {
      assertThat(keys.complete(target.tags()).keySet())
          .as(label + ": one tag key set for all targets")
          .containsExactlyElementsOf(keys.keys());
    }
    for (TargetConfig target : config.targets()) {
      assertThat(target.pollInterval()).as(label + ": pollInterval").isPositive();
    }
    ConnectionConfig connection = config.connection();
    assertThat(connection.connectTimeout()).as(label + ": connectTimeout").isPositive();
    assertThat(connection.callTimeout()).as(label + ": callTimeout").isPositive();
    assertThat(connection.reconnectInitialDelay()).as(label + ": initial delay").isPositive();
    assertThat(connection.reconnectMaxDelay())
        .as(label + ": reconnectMaxDelay")
        .isGreaterThanOrEqualTo(connection.reconnectInitialDelay());
    assertThat(config.http().listen().port()).as(label + ": port").isBetween(0, 65_535);
    JfrConfig jfr = config.jfr();
    assertThat(jfr.maxAge())
        .as(label + ": jfr.maxAge")
        .isGreaterThanOrEqualTo(JfrConfig.MIN_MAX_AGE);
    assertThat(jfr.maxSizeMb())
        .as(label + ": jfr.maxSizeMb")
        .isBetween(JfrConfig.MIN_MAX_SIZE_MB, JfrConfig.MAX_MAX_SIZE_MB);
    assertThat(jfr.stallTimeout())
        .as(label + ": jfr.stallTimeout")
        .isGreaterThanOrEqualTo(JfrConfig.MIN_STALL_TIMEOUT);
    assertThat(jfr.maxLag())
        .as(label + ": jfr.maxLag")
        .isGreaterThanOrEqualTo(JfrConfig.MIN_MAX_LAG);
    assertThat(jfr.stackSamplingAboveRate())
        .as(label + ": sampling rate")
        .isNotNegative()
        .isFinite();
    assertThat(jfr.stormPauseAboveRate())
        .as(label + ": storm pause rate")
        .isNotNegative()
        .isFinite();
    assertThat(jfr.stackSamplingEvery())
        .as(label + ": stackSamplingEvery")
        .isGreaterThanOrEqualTo(jfr.stackSamplingWindow().multipliedBy(2));
    assertThat(jfr.stormPauseProbeEvery())
        .as(label + ": stormPauseProbeEvery")
        .isGreaterThanOrEqualTo(jfr.stormPauseCapture().multipliedBy(4));
  }

  private static List<String> seedFiles() throws Exception {
    List<String> seeds = new ArrayList<>();
    seeds.add(EVERY_SECTION);
    Path root = Jdks.repoRoot();
    for (Path folder : List.of(root.resolve("deploy/config"), root.resolve("deploy/compose"))) {
      try (Stream<Path> files = Files.list(folder)) {
        List<Path> yamls =
            files
                .filter(p -> p.toString().endsWith(".yaml"))
                .filter(p -> folder.endsWith("config") || p.endsWith("sentinel.yaml"))
                .sorted()
                .toList();
        for (Path yaml : yamls) {
          seeds.add(Files.readString(yaml));
        }
      }
    }
    return seeds;
  }

  /** One to three mutations, structural (on the YAML tree) or textual (on the bytes). */
  static byte[] mutate(String valid, Random random) throws Exception {
    String text = valid;
    int rounds = 1 + random.nextInt(3);
    for (int round = 0; round < rounds; round++) {
      text =
          switch (random.nextInt(4)) {
            case 0, 1 -> mutateTree(text, random);
            case 2 -> mutateText(text, random);
            default -> mutateLines(text, random);
          };
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (random.nextInt(10) == 0) {
      // Truncated, as by a full disk or an interrupted copy.
      return java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
    }
    return bytes;
  }

  // Structural mutations work on the plain data snakeyaml-engine (the daemon's parser) loads.
  @SuppressWarnings("unchecked")
  private static String mutateTree(String text, Random random) {
    Object root;
    try {
      root = new Load(LoadSettings.builder().build()).loadFromString(text);
    } catch (RuntimeException e) {
      return mutateText(text, random); // an earlier round broke the YAML already
    }
    if (!(root instanceof Map<?, ?>)) {
      return text;
    }
    List<Map<Object, Object>> maps = new ArrayList<>();
    collectMaps(root, maps);
    Map<Object, Object> target = maps.get(random.nextInt(maps.size()));
    List<Object> keys = new ArrayList<>(target.keySet());
    switch (random.nextInt(4)) {
      case 0 -> target.put("unknown" + random.nextInt(100), surprising(random));
      case 1 -> {
        if (!keys.isEmpty()) {
          target.remove(keys.get(random.nextInt(keys.size())));
        }
      }
      default -> {
        if (!keys.isEmpty()) {
          target.put(keys.get(random.nextInt(keys.size())), surprising(random));
        }
      }
    }
    return new Dump(DumpSettings.builder().build()).dumpToString(root);
  }

  @SuppressWarnings("unchecked")
  private static void collectMaps(Object node, List<Map<Object, Object>> maps) {
    if (node instanceof Map<?, ?> map) {
      maps.add((Map<Object, Object>) map);
      map.values().forEach(value -> collectMaps(value, maps));
    } else if (node instanceof List<?> list) {
      list.forEach(item -> collectMaps(item, maps));
    }
  }

  /** A value of a wrong type, out of range, or odd. */
  private static Object surprising(Random random) {
    return switch (random.nextInt(16)) {
      case 0 -> -1;
      case 1 -> 0;
      case 2 -> Long.MAX_VALUE;
      case 3 -> 1e308;
      case 4 -> "";
      case 5 -> "-5s";
      case 6 -> "99999999999999999999d";
      case 7 -> "127.0.0.1:70000";
      case 8 -> "x".repeat(10_000);
      case 9 -> "\u0000\u202e\uD83D\uDE00 ../../etc/passwd";
      case 10 -> random.nextBoolean();
      case 11 -> null;
      case 12 -> new ArrayList<>(Arrays.asList(1, "two", null));
      case 13 -> new LinkedHashMap<>(Map.of("nested", "map"));
      case 14 -> "0.5ms";
      default -> random.nextInt(200_000) - 100_000;
    };
  }

  private static String mutateText(String text, Random random) {
    if (text.isEmpty()) {
      return "\u0000";
    }
    StringBuilder out = new StringBuilder(text);
    int at = random.nextInt(out.length());
    String[] inserts = {
      ":", "- ", "\t", "{", "[", "'", "\"", "&a ", "*a", "!!binary ", "\n  ", "%", "\u0000", "#"
    };
    switch (random.nextInt(3)) {
      case 0 -> out.insert(at, inserts[random.nextInt(inserts.length)]);
      case 1 -> out.deleteCharAt(at);
      default -> out.setCharAt(at, (char) (32 + random.nextInt(95)));
    }
    return out.toString();
  }

  private static String mutateLines(String text, Random random) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    int at = random.nextInt(lines.size());
    switch (random.nextInt(3)) {
      case 0 -> lines.add(at, lines.get(random.nextInt(lines.size()))); // duplicate a line
      case 1 -> lines.remove(at);
      default -> lines.set(at, "  ".repeat(random.nextInt(4)) + lines.get(at).strip());
    }
    return String.join("\n", lines);
  }
}
