package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The YAML file as written, before defaults and validation: every key is optional here (null when
 * absent). The record components are the allowed keys, in the order the error messages list them.
 */
record ConfigDocument(
    Http http,
    Map<String, String> tags,
    Connection connection,
    Jfr jfr,
    Alerts alerts,
    Detection detection,
    Storage storage,
    Datadog datadog,
    Otlp otlp,
    Discovery discovery,
    List<Target> targets) {
  static final ConfigDocument EMPTY =
      new ConfigDocument(null, null, null, null, null, null, null, null, null, null, null);
  static final Target EMPTY_TARGET =
      new Target(null, null, null, null, null, null, null, null, null);

  record Http(
      HostPort listen,
      HttpTls tls,
      HttpAuth auth,
      List<Pattern> maskArguments,
      List<Pattern> showProperties,
      Boolean openMetrics,
      String externalUrl) {}

  record HttpTls(String keyStore, String keyStorePasswordEnv, String keyStorePasswordFile) {}

  record HttpAuth(Basic basic, Bearer bearer) {}

  record Basic(String username, String passwordEnv, String passwordFile) {}

  record Bearer(String tokenEnv, String tokenFile) {}

  record Connection(
      Duration connectTimeout,
      Duration callTimeout,
      Duration reconnectInitialDelay,
      Duration reconnectMaxDelay) {}

  record Jfr(
      Boolean enabled,
      Duration maxAge,
      Long maxSizeMb,
      Duration stallTimeout,
      Duration maxLag,
      Double stackSamplingAboveRate,
      Duration stackSamplingWindow,
      Duration stackSamplingEvery,
      Double stormPauseAboveRate,
      Duration stormPauseCapture,
      Duration stormPauseProbeEvery,
      Duration simulatedEventCost,
      String feed,
      Duration chunkPeriod) {}

  record Detection(
      Boolean enabled,
      Duration interval,
      Duration signalPollInterval,
      Duration warmup,
      Duration warmupMax,
      Snapshots snapshots,
      String recordDirectory,
      Map<String, Map<String, Double>> rules,
      Map<String, Map<String, Map<String, Double>>> targets,
      List<String> disabled) {}

  record Discovery(LocalDiscovery local, KubernetesDiscovery kubernetes, Long maxTargets) {}

  record LocalDiscovery(
      Boolean enabled,
      Duration interval,
      Duration pollInterval,
      List<JvmMatch> include,
      List<JvmMatch> exclude,
      String jmxAgent,
      Boolean allowHostNetwork) {}

  record JvmMatch(Pattern mainClass, Pattern commandLine, Pattern user) {}

  /** {@code labelTags} is a list of label names or a map of tag key to label name. */
  record KubernetesDiscovery(
      Boolean enabled,
      String apiServer,
      List<String> namespaces,
      String node,
      String annotationPrefix,
      List<PodMatch> include,
      List<PodMatch> exclude,
      JsonNode labelTags,
      Duration pollInterval,
      String username,
      String passwordEnv,
      String passwordFile,
      Duration connectTimeout,
      Duration requestTimeout,
      List<PodCredentials> credentials) {}

  record PodMatch(Pattern namespace, Map<String, Pattern> labels) {}

  record PodCredentials(
      List<String> namespaces,
      Map<String, Pattern> labels,
      String secret,
      String username,
      String passwordEnv,
      String passwordFile,
      List<String> pinnedSha256,
      Boolean tlsRegistry) {}

  record Snapshots(String directory, Long maxSizeMb, Duration window) {}

  record Storage(Long maxDiskMb, Integer streamsPercent, Integer maxConcurrentDumps) {}

  record Alerts(
      Long queueSize,
      Duration retryInitialDelay,
      Duration retryMaxDelay,
      Duration httpTimeout,
      String stateFile,
      Duration restoreGrace,
      String runbookBaseUrl,
      Sinks sinks) {}

  record Sinks(Webhook webhook, Slack slack, PagerDuty pagerduty, Alertmanager alertmanager) {}

  record Webhook(String url, Map<String, String> headers) {}

  record Slack(String webhookUrlEnv, String webhookUrlFile) {}

  record PagerDuty(String routingKeyEnv, String routingKeyFile, String url) {}

  record Alertmanager(String url, List<String> urls) {}

  record Datadog(
      Boolean enabled,
      DogStatsdAddress address,
      Duration step,
      Map<String, String> tags,
      Boolean alerts,
      Boolean agentNames) {}

  record Otlp(
      Boolean enabled,
      String endpoint,
      Duration step,
      Duration connectTimeout,
      Duration readTimeout,
      String temporality,
      Map<String, OtlpHeader> headers,
      Map<String, String> resourceAttributes) {}

  /** One header: a plain {@code value}, or a secret from {@code valueEnv} or {@code valueFile}. */
  record OtlpHeader(String value, String valueEnv, String valueFile) {}

  record Target(
      String name,
      JmxAddress jmx,
      Long pid,
      String username,
      String passwordEnv,
      String passwordFile,
      Duration pollInterval,
      Map<String, String> tags,
      TargetTls tls) {
    Target withName(String newName) {
      return new Target(
          newName, jmx, pid, username, passwordEnv, passwordFile, pollInterval, tags, tls);
    }
  }

  record TargetTls(
      String trustStore,
      String trustStorePasswordEnv,
      String trustStorePasswordFile,
      String keyStore,
      String keyStorePasswordEnv,
      String keyStorePasswordFile,
      Boolean registry) {}
}
