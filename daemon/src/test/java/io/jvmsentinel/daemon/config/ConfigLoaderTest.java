package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;
  final Map<String, String> env = new HashMap<>();
  final ConfigLoader loader = new ConfigLoader(env::get);

  Path write(String yaml) throws Exception {
    return Files.writeString(dir.resolve("config.yaml"), yaml);
  }

  SentinelConfig load(String yaml) throws Exception {
    return loader.load(write(yaml));
  }

  /** The problems of loading {@code yaml}, with the temp directory cut from file names. */
  List<String> problems(String yaml) throws Exception {
    Path file = write(yaml);
    return problems(Optional.of(file), CliOverrides.NONE);
  }

  List<String> problems(Optional<Path> file, CliOverrides cli) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader.load(file, cli));
    assertThat(e).as("expected a ConfigException").isNotNull();
    assertThat(e.getMessage()).isEqualTo(String.join("\n", e.problems()));
    return e.problems().stream().map(p -> p.replace(dir + "/", "")).toList();
  }

  static Path fixture(String name) throws URISyntaxException {
    return Path.of(ConfigLoaderTest.class.getResource("/config/" + name).toURI());
  }

  @Nested
  class ValidFiles {
    @Test
    void everyKeyIsRead() throws Exception {
      env.put("PAYMENTS_JMX_PASSWORD", "pay-pw");

      SentinelConfig config = loader.load(fixture("full.yaml"));

      assertThat(config.http().listen()).isEqualTo(new HostPort("127.0.0.1", 9500));
      assertThat(config.tags()).containsExactly(Map.entry("env", "prod"));
      assertThat(config.connection())
          .isEqualTo(
              new ConnectionConfig(
                  Duration.ofSeconds(3),
                  Duration.ofSeconds(2),
                  Duration.ofMillis(250),
                  Duration.ofMinutes(1)));
      assertThat(config.datadog())
          .isEqualTo(
              new DatadogConfig(
                  true,
                  new DogStatsdAddress("unix:///var/run/datadog/dsd.socket"),
                  Duration.ofSeconds(15),
                  Map.of("team", "jvm"),
                  false,
                  false));
      assertThat(config.targets())
          .containsExactly(
              new TargetConfig(
                  "orders",
                  new JmxAddress("service:jmx:rmi:///jndi/rmi://orders.internal:9010/jmxrmi"),
                  Optional.of("monitor"),
                  Optional.of(Secret.of("s3cret")), // file next to full.yaml, newline trimmed
                  Duration.ofSeconds(15),
                  Map.of("app", "orders")),
              new TargetConfig(
                  "payments",
                  new JmxAddress("service:jmx:jmxmp://payments.internal:5555"),
                  Optional.of("monitor"),
                  Optional.of(Secret.of("pay-pw")),
                  Duration.ofHours(1),
                  Map.of("app", "payments")),
              new TargetConfig(
                  "local.batch_1",
                  new PidAddress(4242),
                  Optional.empty(),
                  Optional.empty(),
                  Duration.ofSeconds(10),
                  Map.of("app", "batch")));
    }

    @Test
    void absentSectionsGetTheirDefaults() throws Exception {
      SentinelConfig config =
          load(
              """
              targets:
                - name: orders
                  jmx: localhost:9010
              """);

      assertThat(config.http()).isEqualTo(HttpConfig.DEFAULT);
      assertThat(config.http().listen().toString()).isEqualTo("0.0.0.0:9404");
      assertThat(config.tags()).isEmpty();
      assertThat(config.connection()).isEqualTo(ConnectionConfig.DEFAULT);
      assertThat(config.connection())
          .isEqualTo(
              new ConnectionConfig(
                  Duration.ofSeconds(5),
                  Duration.ofSeconds(5),
                  Duration.ofMillis(500),
                  Duration.ofSeconds(30)));
      TargetConfig target = config.targets().get(0);
      assertThat(target.pollInterval()).isEqualTo(Duration.ofSeconds(10));
      assertThat(target.username()).isEmpty();
      assertThat(target.password()).isEmpty();
      assertThat(target.tags()).isEmpty();
    }

    @Test
    void jfrSectionDefaultsAndOverrides() throws Exception {
      assertThat(load("targets:\n  - {name: a, pid: 1}\n").jfr()).isEqualTo(JfrConfig.DEFAULT);

      SentinelConfig config =
          load(
              """
              jfr:
                enabled: false
                maxAge: 2m
                maxSizeMb: 16
                stallTimeout: 30s
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.jfr())
          .isEqualTo(new JfrConfig(false, Duration.ofMinutes(2), 16, Duration.ofSeconds(30)));
    }

    @Test
    void jfrOverloadAndStackSampling() throws Exception {
      assertThat(JfrConfig.DEFAULT.maxLag()).isEqualTo(Duration.ofSeconds(4));
      assertThat(JfrConfig.DEFAULT.stackSamplingEnabled()).isTrue();

      SentinelConfig config =
          load(
              """
              jfr:
                maxLag: 8s
                stackSamplingAboveRate: 0
                stackSamplingWindow: 2s
                stackSamplingEvery: 30s
                simulatedEventCost: 1ms
              targets:
                - {name: a, pid: 1}
              """);

      JfrConfig jfr = config.jfr();
      assertThat(jfr.maxLag()).isEqualTo(Duration.ofSeconds(8));
      assertThat(jfr.stackSamplingEnabled()).isFalse();
      assertThat(jfr.stackSamplingWindow()).isEqualTo(Duration.ofSeconds(2));
      assertThat(jfr.stackSamplingEvery()).isEqualTo(Duration.ofSeconds(30));
      assertThat(jfr.simulatedEventCost()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void jfrStormPause() throws Exception {
      assertThat(JfrConfig.DEFAULT.stormPauseEnabled()).isTrue();
      assertThat(JfrConfig.DEFAULT.stormPauseAboveRate()).isEqualTo(2000.0);
      assertThat(JfrConfig.DEFAULT.stormPauseCapture()).isEqualTo(Duration.ofSeconds(15));
      assertThat(JfrConfig.DEFAULT.stormPauseProbeEvery()).isEqualTo(Duration.ofMinutes(10));

      JfrConfig jfr =
          load("""
                  jfr:
                    stormPauseAboveRate: 0
                    stormPauseCapture: 20s
                    stormPauseProbeEvery: 30m
                  targets:
                    - {name: a, pid: 1}
                  """)
              .jfr();
      assertThat(jfr.stormPauseEnabled()).isFalse();
      assertThat(jfr.stormPauseCapture()).isEqualTo(Duration.ofSeconds(20));
      assertThat(jfr.stormPauseProbeEvery()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void jfrFeed() throws Exception {
      assertThat(JfrConfig.DEFAULT.feed()).isEqualTo(JfrConfig.Feed.AUTO);
      assertThat(JfrConfig.DEFAULT.chunkPeriod()).isEqualTo(Duration.ofSeconds(2));

      JfrConfig jfr =
          load("""
                  jfr:
                    feed: Chunks
                    chunkPeriod: 5s
                  targets:
                    - {name: a, pid: 1}
                  """)
              .jfr();
      assertThat(jfr.feed()).isEqualTo(JfrConfig.Feed.CHUNKS);
      assertThat(jfr.chunkPeriod()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void partlyWrittenSectionsKeepTheOtherDefaults() throws Exception {
      SentinelConfig config =
          load(
              """
              connection:
                callTimeout: 1s
              http:
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.connection().callTimeout()).isEqualTo(Duration.ofSeconds(1));
      assertThat(config.connection().connectTimeout()).isEqualTo(Duration.ofSeconds(5));
      assertThat(config.http()).isEqualTo(HttpConfig.DEFAULT);
    }

    @Test
    void listenPortZeroIsAllowed() throws Exception {
      SentinelConfig config =
          load(
              """
              http:
                listen: 127.0.0.1:0
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.http().listen().port()).isZero();
    }

    @Test
    void maskArgumentsAreRegularExpressions() throws Exception {
      SentinelConfig config =
          load(
              """
              http:
                maskArguments: ['ghp_[A-Za-z0-9]+', '(?<=-Dlicence=).*']
                showProperties: ['app\\.region', 'spring\\..*\\.enabled']
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.http().maskArguments())
          .extracting(java.util.regex.Pattern::pattern)
          .containsExactly("ghp_[A-Za-z0-9]+", "(?<=-Dlicence=).*");
      assertThat(config.http().showProperties())
          .extracting(java.util.regex.Pattern::pattern)
          .containsExactly("app\\.region", "spring\\..*\\.enabled");
    }
  }

  @Nested
  class FileProblems {
    @Test
    void missingFile() {
      Path missing = dir.resolve("nope.yaml");
      assertThat(problems(Optional.of(missing), CliOverrides.NONE))
          .containsExactly("config file not found: nope.yaml"); // the path as given, dir cut
    }

    @Test
    void emptyFile() throws Exception {
      assertThat(problems("# nothing but a comment\n"))
          .containsExactly("config.yaml: the file is empty; it needs at least a 'targets:' list");
    }

    @Test
    void malformedYaml() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - name: a
                     jmx: localhost:9010
                  """))
          .containsExactly(
              "config.yaml:3:4: malformed YAML: expected <block end>, but found '<block mapping"
                  + " start>' (while parsing a block collection)");
    }

    @Test
    void rootMustBeAMap() throws Exception {
      assertThat(problems("- localhost:9010\n"))
          .containsExactly("config.yaml:1:1: expected a map, got a list");
    }

    @Test
    void onlyOneDocument() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, pid: 1}
                  ---
                  targets: []
                  """))
          .containsExactly("config.yaml:4:1: only one YAML document is allowed in the file");
    }
  }

  @Nested
  class ParsingProblems {
    @Test
    void unknownKeyNamesItsPlaceAndTheAllowedKeys() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - name: orders
                      jmx: localhost:9010
                      polInterval: 10s
                  """))
          .containsExactly(
              "config.yaml:4:5: unknown key 'targets[0].polInterval'; allowed keys: name, jmx, pid,"
                  + " username, passwordEnv, passwordFile, pollInterval, tags, tls");
    }

    @Test
    void everyUnknownKeyIsReportedInFileOrder() throws Exception {
      assertThat(
              problems(
                  """
                  htp:
                    listen: :9404
                  connection:
                    timeout: 5s
                  targets:
                    - name: orders
                      jmx: localhost:9010
                      extra: {nested: [1, 2]}
                    - name: payments
                      jmx: localhost:9011
                      tag: {app: payments}
                  """))
          .containsExactly(
              "config.yaml:1:1: unknown key 'htp'; allowed keys: http, tags, connection, jfr, alerts,"
                  + " detection, storage, datadog, otlp, discovery, targets",
              "config.yaml:4:3: unknown key 'connection.timeout'; allowed keys: connectTimeout,"
                  + " callTimeout, reconnectInitialDelay, reconnectMaxDelay",
              "config.yaml:8:5: unknown key 'targets[0].extra'; allowed keys: name, jmx, pid,"
                  + " username, passwordEnv, passwordFile, pollInterval, tags, tls",
              "config.yaml:11:5: unknown key 'targets[1].tag'; allowed keys: name, jmx, pid,"
                  + " username, passwordEnv, passwordFile, pollInterval, tags, tls");
    }

    @Test
    void wrongTypesAreReportedWithTheValueFound() throws Exception {
      assertThat(
              problems(
                  """
                  http: 9404
                  targets:
                    - name: a
                      pid: abc
                    - name: b
                      pid: 1.5
                    - name: c
                      jmx: localhost:9010
                      pollInterval: [1]
                      tags: [app]
                  """))
          .containsExactly(
              "config.yaml:1:7: 'http': expected a map, got 9404",
              "config.yaml:4:10: 'targets[0].pid': expected an integer, got \"abc\"",
              "config.yaml:6:10: 'targets[1].pid': expected an integer, got 1.5",
              "config.yaml:9:19: 'targets[2].pollInterval': expected a duration such as 10s, got"
                  + " a list",
              "config.yaml:10:11: 'targets[2].tags': expected a map, got a list");
    }

    @Test
    void badDuration() throws Exception {
      assertThat(
              problems(
                  """
                  connection:
                    callTimeout: abc
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:2:16: 'connection.callTimeout': cannot read \"abc\" as a duration; use"
                  + " e.g. 500ms, 10s, 2m, 1h");
    }

    @Test
    void badListenAddress() throws Exception {
      assertThat(
              problems(
                  """
                  http:
                    listen: 0.0.0.0:99999
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:2:11: 'http.listen': port 99999 in \"0.0.0.0:99999\" is out of range"
                  + " 0..65535");
    }

    @Test
    void badMaskPatternNamesItsPosition() throws Exception {
      assertThat(
              problems(
                  """
                  http:
                    maskArguments: ['ok', 'tok(en']
                  targets:
                    - {name: a, pid: 1}
                  """))
          .singleElement()
          .asString()
          .startsWith("config.yaml:2:25: 'http.maskArguments[1]': not a regular expression:")
          .contains("tok(en");
    }

    @Test
    void badJmxAddress() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - name: a
                      jmx: localhost:99999
                  """))
          .containsExactly(
              "config.yaml:3:10: 'targets[0].jmx': cannot read \"localhost:99999\" as a JMX"
                  + " address; use HOST:PORT (port 1..65535) or a service:jmx: URL");
    }

    @Test
    void duplicateKeys() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - name: a
                      name: b
                      pid: 1
                  """))
          .containsExactly("config.yaml:3:5: duplicate key 'targets[0].name'");
    }

    @Test
    void anUnknownKeyWrittenTwiceIsUnknownOnceAtItsFirstPlace() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - name: a
                      pid: 1
                      colour: red
                      colour: blue
                  """))
          .containsExactly(
              "config.yaml:4:5: unknown key 'targets[0].colour'; allowed keys: name, jmx, pid,"
                  + " username, passwordEnv, passwordFile, pollInterval, tags, tls",
              "config.yaml:5:5: duplicate key 'targets[0].colour'");
    }

    @Test
    void unreadableValuesDoNotCauseFollowUpProblems() throws Exception {
      // pid is unreadable: no "exactly one of jmx or pid", but the semantic problems still come.
      assertThat(
              problems(
                  """
                  targets:
                    - name: a
                      pid: abc
                      pollInterval: 10ms
                  """))
          .containsExactly(
              "config.yaml:3:10: 'targets[0].pid': expected an integer, got \"abc\"",
              "targets[0] (name 'a'): 'pollInterval' must be at least 1s, got 10ms");
    }
  }

  @Nested
  class SemanticProblems {
    @Test
    void jfrLimitsOutOfRange() throws Exception {
      assertThat(
              problems(
                  """
                  jfr:
                    maxAge: 10s
                    maxSizeMb: 1
                    stallTimeout: 1s
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'jfr.maxAge' (10s) must be at least 1m",
              "'jfr.maxSizeMb' (1) must be between 4 and 4096",
              "'jfr.stallTimeout' (1s) must be at least 5s (the target flushes events about once a"
                  + " second)");
    }

    @Test
    void overloadAndStackSamplingOutOfRange() throws Exception {
      assertThat(
              problems(
                  """
                  jfr:
                    maxLag: 1s
                    stackSamplingAboveRate: -5
                    stackSamplingWindow: 500ms
                    stackSamplingEvery: 900ms
                    simulatedEventCost: 1s
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'jfr.maxLag' (1s) must be at least 3s (events reach a remote stream up to about 2.6"
                  + " s after they happen, so a smaller bound would drop events even when the"
                  + " daemon keeps up)",
              "'jfr.stackSamplingAboveRate' (-5.0) must be a thread start rate of 0 or more per"
                  + " second (0 records stacks always)",
              "'jfr.stackSamplingWindow' (500ms) must be at least 1s (the daemon switches"
                  + " settings once a second)",
              "'jfr.stackSamplingEvery' (900ms) must be at least twice 'jfr.stackSamplingWindow'"
                  + " (500ms), or sampling would save nothing",
              "'jfr.simulatedEventCost' (1s) must be at most 100ms (it exists only to measure"
                  + " overload behaviour)");
    }

    @Test
    void stormPauseOutOfRange() throws Exception {
      assertThat(
              problems(
                  """
                  jfr:
                    stormPauseAboveRate: -1
                    stormPauseCapture: 5s
                    stormPauseProbeEvery: 10s
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'jfr.stormPauseAboveRate' (-1.0) must be a thread start rate of 0 or more per"
                  + " second (0 never pauses)",
              "'jfr.stormPauseCapture' (5s) must be at least 10s (the stream must run long enough"
                  + " for the storm to be detected and its creator named)",
              "'jfr.stormPauseProbeEvery' (10s) must be at least four times"
                  + " 'jfr.stormPauseCapture' (5s), or the pause would spare the target little");
    }

    @Test
    void jfrFeedUnknownAndChunkPeriodOutOfRange() throws Exception {
      assertThat(
              problems(
                  """
                  jfr:
                    feed: polling
                    chunkPeriod: 500ms
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'jfr.feed' must be 'auto' (a stream from JDK 16+ targets, chunks read over JMX"
                  + " from older ones), 'stream' or 'chunks', got 'polling'",
              "'jfr.chunkPeriod' (500ms) must be between 1s (each read ends a chunk on the"
                  + " target) and 10s (events would reach the rules too late)");
      assertThat(
              problems(
                  """
                  jfr:
                    chunkPeriod: 1m
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'jfr.chunkPeriod' (1m) must be between 1s (each read ends a chunk on the target)"
                  + " and 10s (events would reach the rules too late)");
    }

    @Test
    void noTargets() throws Exception {
      assertThat(problems("targets: []\n"))
          .containsExactly(
              "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }

    @Test
    void targetsNeedANameMatchingThePattern() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - jmx: localhost:9010
                    - name: "orders app"
                      jmx: localhost:9011
                    -
                  """))
          .containsExactly(
              "targets[0]: 'name' is required (in a pod, set JVM_SENTINEL_POD_NAME from the downward API to name it after the pod)",
              "targets[1] (name 'orders app'): 'name' must match [a-zA-Z0-9_.-]+",
              "targets[2]: empty entry; a target needs 'name' and 'jmx' or 'pid'");
    }

    @Test
    void duplicateNames() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - {name: orders, jmx: "a:1"}
                    - {name: payments, jmx: "b:1"}
                    - {name: orders, jmx: "c:1"}
                  """))
          .containsExactly(
              "targets[2] (name 'orders'): duplicate name; targets[0] is already called 'orders'");
    }

    @Test
    void exactlyOneOfJmxOrPid() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - {name: both, jmx: "localhost:9010", pid: 1234}
                    - {name: neither}
                    - {name: zero, pid: 0}
                  """))
          .containsExactly(
              "targets[0] (name 'both'): exactly one of 'jmx' or 'pid' is required; both are set",
              "targets[1] (name 'neither'): exactly one of 'jmx' or 'pid' is required",
              "targets[2] (name 'zero'): 'pid' must be a positive process id, got 0");
    }

    @Test
    void durationsMustBePositiveAndOrdered() throws Exception {
      assertThat(
              problems(
                  """
                  connection:
                    connectTimeout: 0s
                    reconnectInitialDelay: 1m
                    reconnectMaxDelay: 30s
                  targets:
                    - {name: a, pid: 1, pollInterval: 999ms}
                  """))
          .containsExactly(
              "'connection.connectTimeout' must be greater than 0s",
              "'connection.reconnectMaxDelay' (30s) must not be less than"
                  + " 'connection.reconnectInitialDelay' (1m)",
              "targets[0] (name 'a'): 'pollInterval' must be at least 1s, got 999ms");
    }

    @Test
    void tagKeysFollowPrometheusLabelRules() throws Exception {
      assertThat(
              problems(
                  """
                  tags:
                    env: prod
                    9lives: x
                  targets:
                    - name: a
                      pid: 1
                      tags:
                        target: x
                        app-name: x
                        __meta: x
                        env: staging
                        team:
                  """))
          .containsExactly(
              "'tags': tag key '9lives' is not a valid Prometheus label name; use"
                  + " [a-zA-Z_][a-zA-Z0-9_]*",
              "targets[0] (name 'a'): 'tags': tag key 'target' is reserved: the daemon sets it to"
                  + " the target's name",
              "targets[0] (name 'a'): 'tags': tag key 'app-name' is not a valid Prometheus label"
                  + " name; use [a-zA-Z_][a-zA-Z0-9_]*",
              "targets[0] (name 'a'): 'tags': tag key '__meta' starts with '__', which Prometheus"
                  + " reserves",
              "targets[0] (name 'a'): 'tags': tag 'team' has no value",
              "targets[0] (name 'a'): tag key 'env' is also a common tag (top-level 'tags'); set"
                  + " it once");
    }

    @Test
    void targetsMayDeclareDifferentTagKeysAndEveryTargetCarriesAllOfThem() throws Exception {
      SentinelConfig config =
          load(
              """
              targets:
                - {name: a, pid: 1, tags: {app: a, team: x}}
                - {name: b, pid: 2, tags: {team: y, app: b}}
                - {name: c, pid: 3, tags: {app: c}}
                - {name: d, pid: 4}
              """);
      TargetTagKeys keys = config.tagKeys();
      assertThat(keys.keys()).containsExactly("app", "team");
      assertThat(keys.complete(config.targets().get(2).tags()))
          .containsExactly(Map.entry("app", "c"), Map.entry("team", ""));
      assertThat(keys.complete(config.targets().get(3).tags()))
          .containsExactly(Map.entry("app", ""), Map.entry("team", ""));
    }
  }

  @Nested
  class Passwords {
    @Test
    void passwordFromEnvironment() throws Exception {
      env.put("JMX_PASSWORD", "from-env");
      SentinelConfig config =
          load(
              """
              targets:
                - {name: a, jmx: "localhost:9010", username: monitor, passwordEnv: JMX_PASSWORD}
              """);

      assertThat(config.targets().get(0).password()).contains(Secret.of("from-env"));
    }

    @Test
    void missingEnvironmentVariableIsNamed() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "localhost:9010", username: monitor, passwordEnv: JMX_PASSWORD}
                  """))
          .containsExactly(
              "targets[0] (name 'a'): environment variable 'JMX_PASSWORD' (passwordEnv) is not"
                  + " set");
    }

    @Test
    void passwordFileIsReadAndItsTrailingNewlineTrimmed() throws Exception {
      Path secret = Files.writeString(dir.resolve("pw"), "pass word \r\n");
      SentinelConfig config =
          load(
              """
              targets:
                - {name: a, jmx: "localhost:9010", username: monitor, passwordFile: %s}
              """
                  .formatted(secret));

      assertThat(config.targets().get(0).password().map(Secret::value)).contains("pass word ");
    }

    @Test
    void relativePasswordFilesStartAtTheConfigFile() throws Exception {
      Files.writeString(dir.resolve("pw"), "relative\n");
      SentinelConfig config =
          load(
              """
              targets:
                - {name: a, jmx: "localhost:9010", username: monitor, passwordFile: pw}
              """);

      assertThat(config.targets().get(0).password()).contains(Secret.of("relative"));
    }

    @Test
    void missingOrEmptyPasswordFiles() throws Exception {
      Files.writeString(dir.resolve("blank"), "\n");
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "a:1", username: u, passwordFile: /nonexistent/pw}
                    - {name: b, jmx: "b:1", username: u, passwordFile: blank}
                  """))
          .containsExactly(
              "targets[0] (name 'a'): passwordFile /nonexistent/pw does not exist",
              "targets[1] (name 'b'): passwordFile blank is empty"); // the path as given, dir cut
    }

    @Test
    void aPasswordNeedsAUserAndOneSource() throws Exception {
      env.put("PW", "x");
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "a:1", passwordEnv: PW}
                    - {name: b, jmx: "b:1", username: u, passwordEnv: PW, passwordFile: pw}
                  """))
          .containsExactly(
              "targets[0] (name 'a'): 'passwordEnv' is set but 'username' is not; JMX"
                  + " authentication needs both",
              "targets[1] (name 'b'): set either 'passwordEnv' or 'passwordFile', not both");
    }

    @Test
    void secretsAppearInNoMessageAndNoToString() throws Exception {
      env.put("PW", "hunter2");
      Files.writeString(dir.resolve("pw"), "hunter3\n");
      String yaml =
          """
          targets:
            - {name: a, jmx: "a:1", passwordEnv: PW}
            - {name: b, jmx: "b:1", username: u, passwordFile: pw}
            - {name: c, jmx: "c:1", username: u, passwordEnv: PW, pollInterval: 1ms}
          """;
      assertThat(String.join("\n", problems(yaml))).doesNotContain("hunter");

      SentinelConfig config =
          load(
              """
              targets:
                - {name: a, jmx: "a:1", username: u, passwordEnv: PW}
                - {name: b, jmx: "b:1", username: u, passwordFile: pw}
              """);
      assertThat(config.toString()).doesNotContain("hunter").contains("****");
    }
  }

  @Nested
  class Alerts {
    @Test
    void runbookBaseUrlIsAnHttpUrlEndingInASlash() throws Exception {
      String targets = "targets:\n  - {name: a, pid: 1}\n";
      assertThat(
              load("alerts: {runbookBaseUrl: \"https://wiki.example.com/rb/\"}\n" + targets)
                  .alerts()
                  .runbookBaseUrl())
          .isEqualTo(URI.create("https://wiki.example.com/rb/"));
      assertThat(load(targets).alerts().runbookBaseUrl())
          .isEqualTo(AlertsConfig.DEFAULT_RUNBOOK_BASE_URL);
      assertThat(problems("alerts: {runbookBaseUrl: \"wiki/rb\"}\n" + targets))
          .singleElement()
          .asString()
          .contains("'alerts.runbookBaseUrl' (\"wiki/rb\") must be an http(s) URL ending in \"/\"");
      assertThat(problems("alerts: {runbookBaseUrl: \"https://wiki.example.com/rb\"}\n" + targets))
          .singleElement()
          .asString()
          .contains("ending in \"/\"");
    }

    @Test
    void absentSectionMeansTheJsonLogOnlyWithDefaults() throws Exception {
      AlertsConfig alerts = load("targets:\n  - {name: a, pid: 1}\n").alerts();

      assertThat(alerts).isEqualTo(AlertsConfig.DEFAULT);
      assertThat(alerts)
          .isEqualTo(
              new AlertsConfig(
                  1000,
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(60),
                  Duration.ofSeconds(5),
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Duration.ofSeconds(60),
                  AlertsConfig.DEFAULT_RUNBOOK_BASE_URL));
    }

    @Test
    void everySinkIsRead() throws Exception {
      env.put("SLACK_URL", "https://hooks.slack.com/services/T0/B0/xyz");
      Files.writeString(dir.resolve("pd-key"), "R0UT1NG\n");
      SentinelConfig config =
          load(
              """
              alerts:
                queueSize: 50
                retryInitialDelay: 500ms
                retryMaxDelay: 2m
                httpTimeout: 3s
                stateFile: alerts.json
                restoreGrace: 30s
                sinks:
                  webhook:
                    url: https://hooks.example.com/alerts?team=jvm
                    headers:
                      Authorization: Bearer abc
                  slack:
                    webhookUrlEnv: SLACK_URL
                  pagerduty:
                    routingKeyFile: pd-key
                  alertmanager:
                    urls: [http://am-0:9093, http://am-1:9093/]
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.alerts())
          .isEqualTo(
              new AlertsConfig(
                  50,
                  Duration.ofMillis(500),
                  Duration.ofMinutes(2),
                  Duration.ofSeconds(3),
                  Optional.of(
                      new AlertsConfig.Webhook(
                          URI.create("https://hooks.example.com/alerts?team=jvm"),
                          Map.of("Authorization", "Bearer abc"))),
                  Optional.of(
                      new AlertsConfig.Slack(
                          Secret.of("https://hooks.slack.com/services/T0/B0/xyz"))),
                  Optional.of(
                      new AlertsConfig.PagerDuty(
                          Secret.of("R0UT1NG"), AlertsConfig.DEFAULT_PAGERDUTY_URL)),
                  Optional.of(
                      new AlertsConfig.Alertmanager(
                          List.of(
                              URI.create("http://am-0:9093"), URI.create("http://am-1:9093/")))),
                  Optional.of(dir.resolve("alerts.json").toAbsolutePath()),
                  Duration.ofSeconds(30),
                  AlertsConfig.DEFAULT_RUNBOOK_BASE_URL));
      assertThat(config.alerts().pagerduty().get().url())
          .hasToString("https://events.pagerduty.com/v2/enqueue");
    }

    @Test
    void oneAlertmanagerUrlAndAPagerDutyUrlForTests() throws Exception {
      env.put("PD_KEY", "k");
      AlertsConfig alerts =
          load("""
                  alerts:
                    sinks:
                      pagerduty: {routingKeyEnv: PD_KEY, url: "http://127.0.0.1:8080/v2/enqueue"}
                      alertmanager: {url: "http://127.0.0.1:9093"}
                  targets:
                    - {name: a, pid: 1}
                  """)
              .alerts();

      assertThat(alerts.pagerduty().get().url()).hasToString("http://127.0.0.1:8080/v2/enqueue");
      assertThat(alerts.alertmanager().get().urls())
          .containsExactly(URI.create("http://127.0.0.1:9093"));
    }

    @Test
    void limitsAndDurations() throws Exception {
      assertThat(
              problems(
                  """
                  alerts:
                    queueSize: 0
                    retryInitialDelay: 2m
                    retryMaxDelay: 1m
                    httpTimeout: 0s
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'alerts.queueSize' (0) must be between 1 and 100000",
              "'alerts.httpTimeout' must be greater than 0s",
              "'alerts.retryMaxDelay' (1m) must not be less than 'alerts.retryInitialDelay' (2m)");
      assertThat(problems("alerts: {queueSize: 100001}\ntargets:\n  - {name: a, pid: 1}\n"))
          .containsExactly("'alerts.queueSize' (100001) must be between 1 and 100000");
    }

    @Test
    void externalUrlIsAnAbsoluteUrlWithoutQueryOrPasswordAndLosesItsTrailingSlash()
        throws Exception {
      assertThat(
              load("http: {externalUrl: \"https://sentinel.example.com/prod/\"}\n"
                      + "targets:\n  - {name: a, pid: 1}\n")
                  .http()
                  .externalUrl())
          .contains(java.net.URI.create("https://sentinel.example.com/prod"));
      assertThat(load("targets:\n  - {name: a, pid: 1}\n").http().externalUrl()).isEmpty();
      for (String bad :
          java.util.List.of(
              "sentinel.example.com", "https://u:pw@sentinel.example.com", "https://h/?a=b")) {
        assertThat(
                problems("http: {externalUrl: \"" + bad + "\"}\ntargets:\n  - {name: a, pid: 1}\n"))
            .as(bad)
            .containsExactly(
                "'http.externalUrl' must be an absolute http or https URL without query, fragment"
                    + " or user info, such as https://sentinel.example.com/orders");
      }
    }

    @Test
    void urlsMustBeAbsoluteHttpOrHttps() throws Exception {
      assertThat(
              problems(
                  """
                  alerts:
                    sinks:
                      webhook: {url: "ftp://files.example.com/x"}
                      alertmanager: {urls: ["http://am:9093", "am:9093", "/relative"]}
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'alerts.sinks.webhook.url' must be an absolute http or https URL, such as"
                  + " https://host:8443/path",
              "'alerts.sinks.alertmanager.urls[1]' must be an absolute http or https URL, such as"
                  + " https://host:8443/path",
              "'alerts.sinks.alertmanager.urls[2]' must be an absolute http or https URL, such as"
                  + " https://host:8443/path");
    }

    @Test
    void requiredKeysOfEachSink() throws Exception {
      assertThat(
              problems(
                  """
                  alerts:
                    sinks:
                      webhook: {headers: {X-Team: jvm}}
                      slack: {}
                      pagerduty: {routingKeyEnv: A, routingKeyFile: b}
                      alertmanager: {url: "http://a:9093", urls: ["http://b:9093"]}
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'alerts.sinks.webhook.url' is required",
              "'alerts.sinks.slack' needs 'webhookUrlEnv' or 'webhookUrlFile'; the webhookUrl is"
                  + " a secret and is never written in the configuration file",
              "'alerts.sinks.pagerduty': set either 'routingKeyEnv' or 'routingKeyFile', not both",
              "'alerts.sinks.alertmanager' needs exactly one of 'url' or 'urls' (a list, for the"
                  + " instances of an HA cluster); both are set");
    }

    @Test
    void secretsMustBePresentAndAreNeverQuoted() throws Exception {
      env.put("SLACK_URL", "not a url hunter2");
      Files.writeString(dir.resolve("empty-key"), "\n");
      String yaml =
          """
          alerts:
            sinks:
              slack: {webhookUrlEnv: SLACK_URL}
              pagerduty: {routingKeyFile: empty-key}
          targets:
            - {name: a, pid: 1}
          """;
      assertThat(problems(yaml))
          .containsExactly(
              "'alerts.sinks.slack': the webhook URL read from environment variable 'SLACK_URL' is"
                  + " not an absolute http or https URL",
              "'alerts.sinks.pagerduty': routingKeyFile empty-key is empty");

      env.remove("SLACK_URL");
      assertThat(problems(yaml))
          .first()
          .isEqualTo(
              "'alerts.sinks.slack': environment variable 'SLACK_URL' (webhookUrlEnv) is not set");
    }

    @Test
    void headersAreCheckedAndTheirValuesNeverShown() throws Exception {
      assertThat(
              problems(
                  """
                  alerts:
                    sinks:
                      webhook:
                        url: https://h.example.com/
                        headers:
                          "Bad Header": x
                          Host: other.example.com
                          X-Empty: ""
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'alerts.sinks.webhook.headers': 'Bad Header' is not a valid HTTP header name",
              "'alerts.sinks.webhook.headers.Host': the HTTP client sets this header itself",
              "'alerts.sinks.webhook.headers.X-Empty' needs a value");
    }

    @Test
    void secretsAreMaskedInToString() throws Exception {
      env.put("SLACK_URL", "https://hooks.slack.com/services/T0/B0/hunter2");
      SentinelConfig config =
          load(
              """
              alerts:
                sinks:
                  slack: {webhookUrlEnv: SLACK_URL}
                  webhook: {url: "https://h/", headers: {Authorization: "Bearer hunter3"}}
              targets:
                - {name: a, pid: 1}
              """);

      assertThat(config.toString()).doesNotContain("hunter").contains("****");
    }

    @Test
    void unknownKeysAndWrongTypes() throws Exception {
      assertThat(
              problems(
                  """
                  alerts:
                    queueSize: many
                    sinks:
                      email: {to: ops@example.com}
                      alertmanager: {url: [1]}
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:2:14: 'alerts.queueSize': expected an integer, got \"many\"",
              "config.yaml:4:5: unknown key 'alerts.sinks.email'; allowed keys: webhook, slack,"
                  + " pagerduty, alertmanager",
              "config.yaml:5:25: 'alerts.sinks.alertmanager.url': expected text, got a list");
    }
  }

  @Nested
  class Datadog {
    static final String TARGETS = "targets:\n  - {name: a, pid: 1}\n";

    @Test
    void absentSectionIsDisabled() throws Exception {
      assertThat(load(TARGETS).datadog()).isEqualTo(DatadogConfig.DISABLED);
      assertThat(DatadogConfig.DISABLED)
          .isEqualTo(
              new DatadogConfig(
                  false,
                  new DogStatsdAddress("udp://localhost:8125"),
                  Duration.ofSeconds(10),
                  Map.of(),
                  true,
                  false));
    }

    @Test
    void enabledAloneTakesTheDefaults() throws Exception {
      assertThat(load("datadog: {enabled: true}\n" + TARGETS).datadog())
          .isEqualTo(
              new DatadogConfig(
                  true,
                  new DogStatsdAddress("udp://localhost:8125"),
                  Duration.ofSeconds(10),
                  Map.of(),
                  true,
                  false));
    }

    @Test
    void addressFormsAreNormalised() throws Exception {
      assertThat(load("datadog: {enabled: true, address: \"udp://agent\"}\n" + TARGETS))
          .extracting(c -> c.datadog().address().url())
          .isEqualTo("udp://agent:8125");
      assertThat(load("datadog: {enabled: true, address: \"udp://[::1]:9125\"}\n" + TARGETS))
          .extracting(c -> c.datadog().address().url())
          .isEqualTo("udp://[::1]:9125");
    }

    @Test
    void addressFromTheEnvironmentInDatadogsOrder() throws Exception {
      String yaml = "datadog: {enabled: true}\n" + TARGETS;
      env.put("DD_AGENT_HOST", "10.0.0.7");
      assertThat(load(yaml).datadog().address().url()).isEqualTo("udp://10.0.0.7:8125");
      env.put("DD_DOGSTATSD_PORT", "18125");
      assertThat(load(yaml).datadog().address().url()).isEqualTo("udp://10.0.0.7:18125");
      env.put("DD_DOGSTATSD_URL", "unix:///var/run/datadog/dsd.socket");
      assertThat(load(yaml).datadog().address().url())
          .isEqualTo("unix:///var/run/datadog/dsd.socket");
      // The configured address wins over every variable.
      assertThat(
              load("datadog: {enabled: true, address: \"udp://127.0.0.1:8126\"}\n" + TARGETS)
                  .datadog()
                  .address()
                  .url())
          .isEqualTo("udp://127.0.0.1:8126");
      env.remove("DD_DOGSTATSD_URL");
      env.remove("DD_AGENT_HOST");
      assertThat(load(yaml).datadog().address().url()).isEqualTo("udp://localhost:18125");
    }

    @Test
    void aDisabledExportIgnoresTheEnvironment() throws Exception {
      env.put("DD_DOGSTATSD_URL", "tcp://nope");
      assertThat(load("datadog: {enabled: false}\n" + TARGETS).datadog().address())
          .isEqualTo(DogStatsdAddress.DEFAULT);
    }

    @Test
    void badAddressesStepAndTags() throws Exception {
      env.put("DD_ENV", "prod");
      assertThat(
              problems(
                  """
                  tags: {app: orders}
                  datadog:
                    enabled: true
                    address: tcp://agent:8125
                    step: 500ms
                    tags:
                      1team: x
                      target: y
                      app: z
                      env: staging
                      zone: "a,b"
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:4:12: 'datadog.address': cannot read \"tcp://agent:8125\" as a"
                  + " DogStatsD address; use udp://host:port or unix:///path/to/dsd.socket",
              "'datadog.step' (500ms) must be at least 1s",
              "'datadog.tags': tag key '1team' is not a valid Datadog tag key; use a letter, then"
                  + " [a-zA-Z0-9_.-/]",
              "'datadog.tags.target': the daemon sets this tag itself (on meters or on alert"
                  + " events)",
              "'datadog.tags.app': 'app' is a global tag already (top-level 'tags')",
              "'datadog.tags.env' conflicts with DD_ENV, which the Datadog client sends as the"
                  + " 'env' tag already",
              "'datadog.tags.zone' must not contain ',', '|' or line breaks");
    }

    @Test
    void badEnvironmentVariablesAreNamed() throws Exception {
      String yaml = "datadog: {enabled: true}\n" + TARGETS;
      env.put("DD_DOGSTATSD_PORT", "eighty");
      assertThat(problems(yaml))
          .containsExactly(
              "environment variable DD_DOGSTATSD_PORT (\"eighty\") is not a port (1..65535)");
      env.put("DD_DOGSTATSD_URL", "unix://relative/path");
      assertThat(problems(yaml))
          .containsExactly(
              "environment variable DD_DOGSTATSD_URL: cannot read \"unix://relative/path\" as a"
                  + " DogStatsD address; use udp://host:port or unix:///path/to/dsd.socket");
    }

    @Test
    void unknownKeysAndWrongTypes() throws Exception {
      assertThat(problems("datadog: {enabled: true, host: agent, address: [1]}\n" + TARGETS))
          .containsExactly(
              "config.yaml:1:26: unknown key 'datadog.host'; allowed keys: enabled, address, step,"
                  + " tags, alerts, agentNames",
              "config.yaml:1:48: 'datadog.address': expected udp://host:port or unix:///path, got"
                  + " a list");
    }
  }

  @Nested
  class Discovery {
    @Test
    void maxTargetsDefaultsToAHundredAndIsBounded() throws Exception {
      String local = "discovery:\n  local: {}\n";
      assertThat(load(local).maxTargets()).isEqualTo(100);
      assertThat(load("discovery:\n  maxTargets: 250\n  local: {}\n").maxTargets()).isEqualTo(250);
      assertThat(problems("discovery:\n  maxTargets: 0\n  local: {}\n"))
          .containsExactly(
              "'discovery.maxTargets' (0) must be between 1 and 2000; beyond that, split the JVMs"
                  + " between daemons with complementary filters");
    }

    @Test
    void theLocalSectionWithEveryKey() throws Exception {
      SentinelConfig config =
          load(
              """
              discovery:
                local:
                  interval: 3s
                  pollInterval: 5s
                  include:
                    - mainClass: "^com\\\\.example\\\\."
                      user: "^app$"
                    - commandLine: "--serve"
                  exclude:
                    - mainClass: GradleDaemon
                  jmxAgent: remote
                  allowHostNetwork: true
              """);
      LocalDiscoveryConfig local = config.localDiscovery().orElseThrow();
      assertThat(local.jmxAgent()).isEqualTo(LocalDiscoveryConfig.JmxAgent.REMOTE);
      assertThat(local.allowHostNetwork()).isTrue();
      assertThat(local.interval()).isEqualTo(Duration.ofSeconds(3));
      assertThat(local.pollInterval()).isEqualTo(Duration.ofSeconds(5));
      assertThat(local.include()).hasSize(2);
      assertThat(local.watches("com.example.Orders", "com.example.Orders", Optional.of("app")))
          .isTrue();
      assertThat(local.watches("com.example.Orders", "com.example.Orders", Optional.of("root")))
          .isFalse();
      assertThat(local.watches("x.Y", "x.Y --serve", Optional.empty())).isTrue();
      assertThat(local.watches("x.GradleDaemon", "x.GradleDaemon --serve", Optional.empty()))
          .isFalse();
      assertThat(config.targets()).isEmpty();
    }

    @Test
    void defaultsAndOff() throws Exception {
      LocalDiscoveryConfig local = load("discovery:\n  local: {}\n").localDiscovery().orElseThrow();
      assertThat(local.interval()).isEqualTo(LocalDiscoveryConfig.DEFAULT_INTERVAL);
      assertThat(local.pollInterval()).isEqualTo(TargetConfig.DEFAULT_POLL_INTERVAL);
      assertThat(local.include()).isEmpty();
      assertThat(local.jmxAgent()).isEqualTo(LocalDiscoveryConfig.JmxAgent.AUTO);
      assertThat(local.allowHostNetwork()).isFalse();
      assertThat(problems("discovery:\n  local:\n    enabled: false\n"))
          .containsExactly(
              "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }

    @Test
    void everyProblemOfTheSectionIsReported() throws Exception {
      assertThat(
              problems(
                  """
                  discovery:
                    local:
                      interval: 100ms
                      pollInterval: 10ms
                      include:
                        - {}
                      exclude:
                        - mainClass: "("
                      jmxAgent: sometimes
                  targets:
                    - name: orders
                      jmx: localhost:9010
                  """))
          .hasSize(5)
          .anySatisfy(
              p ->
                  assertThat(p)
                      .contains("'discovery.local.jmxAgent' must be 'auto'")
                      .contains("got 'sometimes'"))
          .anySatisfy(p -> assertThat(p).contains("'discovery.local.interval' must be at least 1s"))
          .anySatisfy(
              p -> assertThat(p).contains("'discovery.local.pollInterval' must be at least 1s"))
          .anySatisfy(
              p ->
                  assertThat(p)
                      .contains(
                          "'discovery.local.include[0]' needs at least one of mainClass,"
                              + " commandLine, user"))
          .anySatisfy(p -> assertThat(p).contains("discovery.local.exclude[0].mainClass"));
    }
  }

  @Nested
  class KubernetesDiscovery {
    @Test
    void theSectionWithEveryKey() throws Exception {
      env.put("NODE_NAME", "node-7");
      env.put("JMX_PASSWORD", "s3cret");
      SentinelConfig config =
          load(
              """
              tags: {cluster: eu-1}
              discovery:
                kubernetes:
                  apiServer: https://kubernetes.default.svc
                  namespaces: [shop, billing]
                  node: ${NODE_NAME}
                  annotationPrefix: jmx.example.com/
                  include:
                    - namespace: "shop|billing"
                  exclude:
                    - labels: {track: canary}
                  labelTags: {app: app.kubernetes.io/name, team: team}
                  pollInterval: 5s
                  credentials:
                    - namespaces: [shop]
                      labels: {app: "orders|cart"}
                      secret: jvm-sentinel-jmx
                      pinnedSha256: ["%s"]
                      tlsRegistry: false
                    - namespaces: [billing, shop]
                      username: monitor
                      passwordEnv: JMX_PASSWORD
                  connectTimeout: 3s
                  requestTimeout: 20s
                  secretRefresh: 15s
              """
                  .formatted("AB:".repeat(31) + "AB"));
      KubernetesDiscoveryConfig k8s = config.kubernetesDiscovery().orElseThrow();
      assertThat(k8s.apiServer()).contains("https://kubernetes.default.svc");
      assertThat(k8s.namespaces()).containsExactly("shop", "billing");
      assertThat(k8s.node()).contains("node-7");
      assertThat(k8s.annotationPrefix()).isEqualTo("jmx.example.com/");
      assertThat(k8s.labelTags())
          .containsExactly(Map.entry("app", "app.kubernetes.io/name"), Map.entry("team", "team"));
      assertThat(k8s.pollInterval()).isEqualTo(Duration.ofSeconds(5));
      assertThat(k8s.credentials()).hasSize(2);
      PodCredentials fromSecret = k8s.credentials().get(0);
      assertThat(fromSecret.secret()).contains("jvm-sentinel-jmx");
      assertThat(fromSecret.username()).isEmpty();
      assertThat(fromSecret.pinnedSha256()).containsExactly("ab".repeat(32));
      assertThat(fromSecret.tlsRegistry()).isFalse();
      assertThat(fromSecret.allows("shop", Map.of("app", "cart"))).isTrue();
      assertThat(fromSecret.allows("shop", Map.of("app", "cart-2"))).isFalse(); // whole value
      assertThat(fromSecret.allows("shop", Map.of())).isFalse();
      assertThat(fromSecret.allows("billing", Map.of("app", "cart"))).isFalse();
      PodCredentials given = k8s.credentials().get(1);
      assertThat(given.username()).contains("monitor");
      assertThat(given.password()).contains(Secret.of("s3cret"));
      assertThat(given.secret()).isEmpty();
      assertThat(given.pinnedSha256()).isEmpty();
      assertThat(given.tlsRegistry()).isTrue();
      assertThat(given.allows("billing", Map.of())).isTrue();
      assertThat(given.allows("billing-2", Map.of())).isFalse(); // exact names
      assertThat(k8s.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
      assertThat(k8s.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
      assertThat(k8s.secretRefresh()).isEqualTo(Duration.ofSeconds(15));
      assertThat(k8s.watches("shop", Map.of("app", "orders"))).isTrue();
      assertThat(k8s.watches("shop", Map.of("track", "canary"))).isFalse();
      assertThat(k8s.watches("shop-staging", Map.of())).isFalse(); // whole-value match
      assertThat(config.targets()).isEmpty();
      assertThat(config.localDiscovery()).isEmpty();
    }

    @Test
    void defaultsAndTheListFormOfLabelTags() throws Exception {
      KubernetesDiscoveryConfig k8s =
          load("discovery:\n  kubernetes:\n    labelTags: [app, team]\n")
              .kubernetesDiscovery()
              .orElseThrow();
      assertThat(k8s.apiServer()).isEmpty();
      assertThat(k8s.namespaces()).isEmpty();
      assertThat(k8s.node()).isEmpty();
      assertThat(k8s.annotationPrefix()).isEqualTo("jvm-sentinel.io/");
      assertThat(k8s.labelTags())
          .containsExactly(Map.entry("app", "app"), Map.entry("team", "team"));
      assertThat(k8s.pollInterval()).isEqualTo(TargetConfig.DEFAULT_POLL_INTERVAL);
      assertThat(k8s.credentials()).isEmpty();
      assertThat(k8s.requestTimeout()).isEqualTo(KubernetesDiscoveryConfig.DEFAULT_REQUEST_TIMEOUT);
      assertThat(k8s.secretRefresh()).isEqualTo(Duration.ofSeconds(60));
      assertThat(load("discovery:\n  kubernetes: {}\n").kubernetesDiscovery()).isPresent();
      assertThat(problems("discovery:\n  kubernetes:\n    enabled: false\n"))
          .containsExactly(
              "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }

    @Test
    void everyProblemOfTheSectionIsReported() throws Exception {
      assertThat(
              problems(
                  """
                  tags: {cluster: eu-1}
                  discovery:
                    kubernetes:
                      apiServer: ftp://api
                      namespaces: [shop, Shop_2, shop]
                      node: ${NODE_NAME}
                      annotationPrefix: jvm-sentinel
                      include:
                        - {}
                      exclude:
                        - labels: {"bad key!": x}
                        - namespace: "("
                      labelTags: [app.kubernetes.io/name, pod]
                      pollInterval: 10ms
                      requestTimeout: 0s
                      secretRefresh: 100ms
                      passwordEnv: JMX_PASSWORD
                      credentials:
                        - namespaces: [payments, shop]
                          secret: Bad_Name
                          username: monitor
                        - {}
                        - namespaces: [shop]
                          labels: {"bad key!": x}
                          username: monitor
                          pinnedSha256: [abc]
                  targets:
                    - name: orders
                      jmx: localhost:9010
                  """))
          .containsExactlyInAnyOrder(
              "'discovery.kubernetes.username' and its password would go to every pod that"
                  + " annotates itself; move them into 'discovery.kubernetes.credentials' with the"
                  + " namespaces allowed to receive them, e.g. credentials: [{namespaces: [shop],"
                  + " username: monitor, passwordFile: ...}], or name a Secret per namespace:"
                  + " [{namespaces: [shop], secret: jvm-sentinel-jmx}]",
              "'discovery.kubernetes.credentials[0].namespaces[0]': namespace 'payments' is not"
                  + " watched ('discovery.kubernetes.namespaces'); add it there or remove it here",
              "'discovery.kubernetes.credentials[0]': set either 'secret' (a Secret per namespace)"
                  + " or 'username' with its password, not both",
              "'discovery.kubernetes.credentials[1].namespaces' is required: the namespaces whose"
                  + " pods may receive these credentials (exact names)",
              "'discovery.kubernetes.credentials[1]' needs 'secret' (the name of a Secret in each"
                  + " namespace, with keys username, password and optionally ca.crt) or 'username'"
                  + " with 'passwordEnv' or 'passwordFile'",
              "'discovery.kubernetes.credentials[2].labels': 'bad key!' is not a Kubernetes label"
                  + " name",
              "'discovery.kubernetes.credentials[2]' needs 'passwordEnv' or 'passwordFile'; the"
                  + " password is a secret and is never written in the configuration file",
              "'discovery.kubernetes.credentials[2].pinnedSha256[0]' is not a SHA-256"
                  + " fingerprint; give 64 hex digits, with or without colons (openssl x509 -noout"
                  + " -fingerprint -sha256 -in server.crt)",
              "'discovery.kubernetes.apiServer' must be an http(s) URL such as"
                  + " https://kubernetes.default.svc, got \"ftp://api\"; leave it out to use the"
                  + " pod's service account or the kubeconfig",
              "'discovery.kubernetes.namespaces[1]' (\"Shop_2\") is not a namespace name; use"
                  + " [a-z0-9-]+",
              "'discovery.kubernetes.namespaces[2]': namespace 'shop' is listed twice",
              "'discovery.kubernetes.node': environment variable 'NODE_NAME' is not set; set it"
                  + " from the downward API (valueFrom.fieldRef.fieldPath: spec.nodeName)",
              "'discovery.kubernetes.annotationPrefix' (\"jvm-sentinel\") must be a DNS name"
                  + " followed by '/', like jvm-sentinel.io/",
              "'discovery.kubernetes.include[0]' needs 'namespace' or 'labels'",
              "'discovery.kubernetes.exclude[0].labels': 'bad key!' is not a Kubernetes label name",
              "config.yaml:12:20: 'discovery.kubernetes.exclude[1].namespace': not a regular"
                  + " expression: Unclosed group at index 1 of \"(\"",
              "'discovery.kubernetes.labelTags': label 'app.kubernetes.io/name' is not a valid tag"
                  + " key; map it to one: {my_tag: app.kubernetes.io/name}",
              "'discovery.kubernetes.labelTags': tag key 'pod' is set by discovery itself (from"
                  + " the pod)",
              "'discovery.kubernetes.pollInterval' must be at least 1s, got 10ms",
              "'discovery.kubernetes.requestTimeout' must be greater than 0s",
              "'discovery.kubernetes.secretRefresh' must be at least 1s, got 100ms");
    }

    @Test
    void discoverKubernetesOnTheCommandLineTakesTheFileSectionOrTheDefaults() throws Exception {
      CliOverrides kubernetes =
          new CliOverrides(
              List.of(), List.of(), Optional.empty(), Optional.empty(), Optional.empty(), true);
      KubernetesDiscoveryConfig defaults =
          loader.load(Optional.empty(), kubernetes).kubernetesDiscovery().orElseThrow();
      assertThat(defaults.namespaces()).isEmpty();
      assertThat(defaults.annotationPrefix()).isEqualTo("jvm-sentinel.io/");

      Path file = write("discovery:\n  kubernetes:\n    enabled: false\n    namespaces: [shop]\n");
      assertThat(loader.load(Optional.of(file), kubernetes).kubernetesDiscovery().orElseThrow())
          .extracting(KubernetesDiscoveryConfig::namespaces)
          .isEqualTo(List.of("shop"));
    }

    @Test
    void fixedTargetsAndLocalDiscoveryCombineWithItUnderOneTagKeySet() throws Exception {
      SentinelConfig config =
          load(
              """
              discovery:
                local: {}
                kubernetes:
                  labelTags: [app]
              targets:
                - {name: orders, jmx: "orders:9010", tags: {team: shop}}
              """);
      assertThat(config.kubernetesDiscovery()).isPresent();
      assertThat(config.localDiscovery()).isPresent();
      assertThat(config.tagKeys().keys())
          .containsExactly(
              "team",
              "main_class",
              "pid",
              "pod_uid",
              "namespace",
              "pod",
              "container",
              "node",
              "app");
    }

    @Test
    void labelTagsMustNotRepeatACommonTag() throws Exception {
      assertThat(
              problems(
                  "tags: {team: core}\ndiscovery:\n  kubernetes:\n    labelTags: {team: team}\n"))
          .containsExactly(
              "'discovery.kubernetes.labelTags': tag key 'team' is also a common tag (top-level"
                  + " 'tags'); set it once");
    }
  }

  @Nested
  class Detection {
    @Test
    void theFastDetectionPollIsOnEverySecondByDefault() throws Exception {
      assertThat(load("targets:\n  - {name: a, pid: 1}\n").detection().signalPollInterval())
          .isEqualTo(Duration.ofSeconds(1))
          .isEqualTo(DetectionConfig.DEFAULT.signalPollInterval());
      assertThat(
              load("detection:\n  interval: 2s\ntargets:\n  - {name: a, pid: 1}\n")
                  .detection()
                  .signalPollInterval())
          .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void theFastDetectionPollIntervalIsRead() throws Exception {
      assertThat(
              load("detection:\n  signalPollInterval: 2s\ntargets:\n  - {name: a, pid: 1}\n")
                  .detection()
                  .signalPollInterval())
          .isEqualTo(Duration.ofSeconds(2));
      assertThat(
              load("detection:\n  signalPollInterval: 500ms\ntargets:\n  - {name: a, pid: 1}\n")
                  .detection()
                  .signalPollInterval())
          .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void zeroTurnsTheFastDetectionPollOff() throws Exception {
      assertThat(
              load("detection:\n  signalPollInterval: 0s\ntargets:\n  - {name: a, pid: 1}\n")
                  .detection()
                  .signalPollInterval())
          .isZero();
    }

    @Test
    void aFastDetectionPollBelowHalfASecondIsRefused() throws Exception {
      assertThat(
              problems(
                  """
                  detection:
                    interval: 100ms
                    signalPollInterval: 499ms
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "'detection.interval' (100ms) must be at least 500ms",
              "'detection.signalPollInterval' (499ms) must be 0s (off) or at least 500ms");
    }

    @Test
    void aFastDetectionPollIntervalOfTheWrongTypeNamesItsPlace() throws Exception {
      assertThat(
              problems(
                  """
                  detection:
                    signalPollInterval: [1s]
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:2:23: 'detection.signalPollInterval': expected a duration such as 10s,"
                  + " got a list");
      assertThat(
              problems(
                  """
                  detection:
                    signalPollInterval: fast
                  targets:
                    - {name: a, pid: 1}
                  """))
          .containsExactly(
              "config.yaml:2:23: 'detection.signalPollInterval': cannot read \"fast\" as a"
                  + " duration; use e.g. 500ms, 10s, 2m, 1h");
    }

    @Test
    void aMisspeltKeyListsTheDetectionKeys() throws Exception {
      assertThat(
              problems(
                  """
                  detection:
                    signalPoll: 1s
                  targets:
                    - {name: a, pid: 1}
                  """))
          .singleElement()
          .asString()
          .startsWith(
              "config.yaml:2:3: unknown key 'detection.signalPoll'; allowed keys: enabled,"
                  + " interval, signalPollInterval, warmup,");
    }

    /** Overrides for the target 'checkout'; the targets follow. */
    static final String CHECKOUT_OVERRIDES =
        """
        detection:
          targets:
            checkout: {CompilerCpuHigh: {share: 0.5}}
        targets:
        """;

    @Test
    void overridesForAnUnknownTargetAreAProblemThatListsTheTargets() throws Exception {
      assertThat(problems(CHECKOUT_OVERRIDES + "  - {name: orders, pid: 1}\n"))
          .containsExactly(
              "'detection.targets.checkout': no target is called 'checkout'; targets: [orders]");
    }

    @Test
    void overridesForATargetWithAProblemOfItsOwnAreNoSecondProblem() throws Exception {
      // deploy/config/with-alerting.yaml outside a pod: the password variable is not set, and
      // check-config also said "no target is called 'checkout'; targets: []".
      assertThat(
              problems(
                  CHECKOUT_OVERRIDES
                      + "  - {name: checkout, jmx: \"checkout:9010\", username: m,"
                      + " passwordEnv: CHECKOUT_PW}\n"))
          .containsExactly(
              "targets[0] (name 'checkout'): environment variable 'CHECKOUT_PW' (passwordEnv) is"
                  + " not set");
    }
  }

  @Nested
  class CommandLine {
    @Test
    void cliTargetsAreAppendedAndNamed() throws Exception {
      Path file =
          write(
              """
              targets:
                - {name: orders, jmx: "orders:9010"}
              """);
      CliOverrides cli =
          new CliOverrides(
              List.of(
                  "localhost:9010",
                  "[::1]:9011",
                  "service:jmx:rmi:///jndi/rmi://db.internal:9012/jmxrmi",
                  "service:jmx:jmxmp://cache:5555"),
              List.of(1234L),
              Optional.empty());

      SentinelConfig config = loader.load(Optional.of(file), cli);

      assertThat(config.targets())
          .extracting(TargetConfig::name)
          .containsExactly(
              "orders", "localhost-9010", "1-9011", "db.internal-9012", "cache-5555", "pid-1234");
      assertThat(config.targets().get(1).address())
          .isEqualTo(new JmxAddress("service:jmx:rmi:///jndi/rmi://localhost:9010/jmxrmi"));
      assertThat(config.targets().get(5).address()).isEqualTo(new PidAddress(1234));
      assertThat(config.targets().get(5).pollInterval()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void cliAloneNeedsNoFile() throws Exception {
      SentinelConfig config =
          loader.load(
              Optional.empty(),
              new CliOverrides(List.of("localhost:9010"), List.of(), Optional.of(":9500")));

      assertThat(config.http().listen()).isEqualTo(new HostPort("", 9500));
      assertThat(config.connection()).isEqualTo(ConnectionConfig.DEFAULT);
      assertThat(config.targets()).extracting(TargetConfig::name).containsExactly("localhost-9010");
    }

    @Test
    void nameNamesTheOneCliTarget() throws Exception {
      SentinelConfig config =
          loader.load(
              Optional.empty(),
              new CliOverrides(List.of(), List.of(4242L), Optional.empty(), Optional.of("orders")));

      assertThat(config.targets()).extracting(TargetConfig::name).containsExactly("orders");
      assertThat(config.targets().get(0).address()).isEqualTo(new PidAddress(4242));
    }

    @Test
    void discoveryNeedsNoTargetsButCannotBeCombinedWithFixedOnes() throws Exception {
      SentinelConfig config =
          loader.load(
              Optional.empty(),
              new CliOverrides(
                  List.of(), List.of(), Optional.empty(), Optional.empty(), Optional.of(LOCAL)));
      assertThat(config.targets()).isEmpty();
      assertThat(config.localDiscovery()).contains(LOCAL);

      // Fixed targets and discovered ones together: all series carry every key of both.
      SentinelConfig both =
          new ConfigLoader(variable -> null)
              .load(
                  Optional.empty(),
                  new CliOverrides(
                      List.of(),
                      List.of(7L),
                      Optional.empty(),
                      Optional.empty(),
                      Optional.of(LOCAL)));
      assertThat(both.targets()).extracting(TargetConfig::name).containsExactly("pid-7");
      assertThat(both.tagKeys().keys())
          .containsExactly("main_class", "pid", "pod_uid", "namespace", "pod", "container", "node");
    }

    private static final LocalDiscoveryConfig LOCAL =
        new LocalDiscoveryConfig(
            Duration.ofSeconds(5), Duration.ofSeconds(10), List.of(), List.of());

    @Test
    void nameNeedsExactlyOneCliTargetAndAValidName() {
      assertThat(
              problems(
                  Optional.empty(),
                  new CliOverrides(
                      List.of("localhost:9010"), List.of(7L), Optional.empty(), Optional.of("a"))))
          .containsExactly(
              "--name a: names the one target of --target or --pid, but the command line gives 2");
      assertThat(
              problems(
                  Optional.empty(),
                  new CliOverrides(List.of(), List.of(7L), Optional.empty(), Optional.of("a b"))))
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .startsWith("--pid 7 (name 'a b'): ");
    }

    @Test
    void listenOverridesTheFile() throws Exception {
      Path file =
          write(
              """
              http:
                listen: 0.0.0.0:9404
              targets:
                - {name: a, pid: 1}
              """);

      SentinelConfig config =
          loader.load(
              Optional.of(file), new CliOverrides(List.of(), List.of(), Optional.of("[::1]:0")));

      assertThat(config.http().listen()).isEqualTo(new HostPort("::1", 0));
    }

    @Test
    void nothingToWatch() {
      assertThat(problems(Optional.empty(), CliOverrides.NONE))
          .containsExactly(
              "no targets: give --target HOST:PORT, --pid PID, --discover local|kubernetes, or a config file with targets: or discovery:");
    }

    @Test
    void badCliValuesAreNamedByTheirFlag() {
      assertThat(
              problems(
                  Optional.empty(),
                  new CliOverrides(List.of("localhost"), List.of(-1L), Optional.of("9404"))))
          .containsExactly(
              "--target localhost: cannot read \"localhost\" as a JMX address; use HOST:PORT (port"
                  + " 1..65535) or a service:jmx: URL",
              "--listen 9404: cannot read \"9404\" as host:port; use e.g. localhost:9010, :9404"
                  + " or [::1]:9010",
              "--pid -1 (name 'pid--1'): 'pid' must be a positive process id, got -1");
    }

    @Test
    void cliTargetsCollideWithFileNames() throws Exception {
      Path file =
          write(
              """
              targets:
                - {name: localhost-9010, jmx: "localhost:9010"}
              """);

      assertThat(
              problems(
                  Optional.of(file),
                  new CliOverrides(List.of("localhost:9010"), List.of(), Optional.empty())))
          .containsExactly(
              "--target localhost:9010 (name 'localhost-9010'): duplicate name; targets[0] is"
                  + " already called 'localhost-9010'");
    }

    @Test
    void cliTargetsWithoutTagsJoinFileTargetsWithTags() throws Exception {
      Path file =
          write(
              """
              targets:
                - {name: orders, jmx: "orders:9010", tags: {app: orders}}
              """);

      SentinelConfig config =
          new ConfigLoader(variable -> null)
              .load(Optional.of(file), new CliOverrides(List.of(), List.of(7L), Optional.empty()));
      assertThat(config.tagKeys().keys()).containsExactly("app");
      assertThat(config.tagKeys().complete(config.targets().get(1).tags()))
          .containsExactly(Map.entry("app", ""));
    }
  }
}
