package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code otlp} section: defaults, the OTEL_* fallbacks, secret headers and every problem. */
class OtlpConfigTest {
  static final String TARGETS = "targets:\n  - {name: a, pid: 1}\n";

  @TempDir Path dir;
  final Map<String, String> env = new HashMap<>();
  final ConfigLoader loader = new ConfigLoader(env::get);

  OtlpConfig load(String yaml) throws Exception {
    return loader.load(Files.writeString(dir.resolve("config.yaml"), yaml + TARGETS)).otlp();
  }

  List<String> problems(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("config.yaml"), yaml + TARGETS);
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader.load(file));
    assertThat(e).as("expected a ConfigException").isNotNull();
    return e.problems().stream().map(p -> p.replace(dir + "/", "")).toList();
  }

  @Test
  void absentSectionIsDisabledAndEnabledAloneTakesTheDefaults() throws Exception {
    assertThat(load("")).isEqualTo(OtlpConfig.DISABLED);
    assertThat(load("otlp: {enabled: true}\n"))
        .isEqualTo(
            new OtlpConfig(
                true,
                URI.create("http://localhost:4318/v1/metrics"),
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                OtlpConfig.Temporality.CUMULATIVE,
                Map.of(),
                Map.of()));
  }

  @Test
  void everyKeyIsRead() throws Exception {
    env.put("OTLP_TOKEN", "s3cret");
    Files.writeString(dir.resolve("tenant"), "team-a\n");
    OtlpConfig c =
        load(
            """
            otlp:
              enabled: true
              endpoint: https://otlp.example.com:4318/v1/metrics
              step: 15s
              connectTimeout: 500ms
              readTimeout: 5s
              temporality: delta
              headers:
                Authorization: {valueEnv: OTLP_TOKEN}
                X-Scope-OrgID: {valueFile: tenant}
                X-Source: {value: sidecar}
              resourceAttributes:
                service.name: orders
                deployment.environment.name: prod
            """);
    assertThat(c.endpoint()).isEqualTo(URI.create("https://otlp.example.com:4318/v1/metrics"));
    assertThat(c.step()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.connectTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.readTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.temporality()).isEqualTo(OtlpConfig.Temporality.DELTA);
    assertThat(c.headers())
        .containsExactly(
            Map.entry("Authorization", Secret.of("s3cret")),
            Map.entry("X-Scope-OrgID", Secret.of("team-a")),
            Map.entry("X-Source", Secret.of("sidecar")));
    assertThat(c.resourceAttributes())
        .containsExactly(
            Map.entry("service.name", "orders"), Map.entry("deployment.environment.name", "prod"));
    assertThat(c.toString()).doesNotContain("s3cret").doesNotContain("team-a");
  }

  @Test
  void endpointFromTheEnvironmentInTheSdkOrder() throws Exception {
    String yaml = "otlp: {enabled: true}\n";
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/");
    assertThat(load(yaml).endpoint()).isEqualTo(URI.create("http://collector:4318/v1/metrics"));
    env.put("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://metrics:9999/custom");
    assertThat(load(yaml).endpoint()).isEqualTo(URI.create("http://metrics:9999/custom"));
    // The configured endpoint wins over both.
    assertThat(
            load("otlp: {enabled: true, endpoint: \"http://mine:4318/v1/metrics\"}\n").endpoint())
        .isEqualTo(URI.create("http://mine:4318/v1/metrics"));
  }

  @Test
  void aDisabledExportIgnoresTheEnvironment() throws Exception {
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "not a url");
    assertThat(load("otlp: {enabled: false}\n").endpoint()).isEqualTo(OtlpConfig.DEFAULT_ENDPOINT);
  }

  @Test
  void everyProblemIsReportedWithoutQuotingSecrets() throws Exception {
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "ftp://nope");
    env.put("BROKEN", "line\nbreak");
    assertThat(
            problems(
                """
                otlp:
                  enabled: true
                  step: 500ms
                  readTimeout: 0s
                  temporality: sometimes
                  headers:
                    Content-Type: {value: text/plain}
                    "bad header": {value: x}
                    X-Both: {value: a, valueEnv: B}
                    X-None: {}
                    X-Missing: {valueEnv: NOT_SET}
                    X-Broken: {valueEnv: BROKEN}
                  resourceAttributes:
                    service.name: ""
                """))
        .containsExactlyInAnyOrder(
            "environment variable OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http or https"
                + " URL, such as http://otel-collector:4318/v1/metrics",
            "'otlp.step' must be at least 1s",
            "'otlp.readTimeout' must be at least 1ms",
            "'otlp.temporality' (\"sometimes\") must be 'cumulative' (the default) or 'delta'",
            "'otlp.headers.Content-Type': the exporter sets this header itself",
            "'otlp.headers': 'bad header' is not a valid HTTP header name",
            "'otlp.headers.X-Both': set one of 'value', 'valueEnv' or 'valueFile'",
            "'otlp.headers.X-None' needs 'value', 'valueEnv' or 'valueFile'",
            "'otlp.headers.X-Missing': environment variable 'NOT_SET' (valueEnv) is not set",
            "'otlp.headers.X-Broken' must not contain line breaks",
            "'otlp.resourceAttributes.service.name' needs a value");
  }

  @Test
  void aReadTimeoutLongerThanTheStepIsRefused() throws Exception {
    assertThat(problems("otlp: {enabled: true, step: 5s, readTimeout: 10s}\n"))
        .containsExactly(
            "'otlp.readTimeout' (10s) must not be longer than 'otlp.step' (5s), or a slow endpoint"
                + " would delay the next push");
  }

  @Test
  void unknownKeysAreNamed() throws Exception {
    assertThat(problems("otlp: {enabled: true, url: \"http://x:4318\"}\n"))
        .singleElement()
        .asString()
        .contains("unknown key 'otlp.url'")
        .contains(
            "allowed keys: enabled, endpoint, step, connectTimeout, readTimeout, temporality,"
                + " headers, resourceAttributes");
  }
}
