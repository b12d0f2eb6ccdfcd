package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.runtime.SentinelDaemon;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starts an in-process daemon from a YAML configuration, listening on a free loopback port. */
final class Daemons {
  private Daemons() {}

  /**
   * The daemon settings the integration tests share: RMI timeouts are process-wide, so every test
   * in this JVM uses the same connect and call timeouts (2 s).
   */
  static String connectionYaml() {
    return """
        http:
          listen: 127.0.0.1:0
        connection:
          connectTimeout: 2s
          callTimeout: 2s
          reconnectInitialDelay: 300ms
          reconnectMaxDelay: 2s
        """;
  }

  static SentinelDaemon start(Path dir, String targetsYaml) throws Exception {
    return start(dir, targetsYaml, Map.of());
  }

  /**
   * As above, as if these environment variables were set as well (a pod's downward-API identity);
   * the real environment answers the others.
   */
  static SentinelDaemon start(Path dir, String targetsYaml, Map<String, String> env)
      throws Exception {
    return startWith(dir, connectionYaml() + targetsYaml, env);
  }

  /**
   * A daemon of exactly this configuration. Its connection timeouts apply to its poll watchdog; the
   * RMI timeouts are process-wide and set by the first daemon of the JVM, so a test with other
   * timeouts than {@link #connectionYaml()} installs those first ({@code RmiTimeouts.install}).
   */
  static SentinelDaemon startWith(Path dir, String yaml, Map<String, String> env) throws Exception {
    Path file = Files.createTempFile(dir, "sentinel", ".yaml");
    Files.writeString(file, yaml);
    return SentinelDaemon.start(
        new ConfigLoader(name -> env.containsKey(name) ? env.get(name) : System.getenv(name))
            .load(Optional.of(file), new CliOverrides(List.of(), List.of(), Optional.empty())));
  }

  /** Waits (up to 30 s) until the target {@code name} is up. */
  static void awaitUp(DaemonHttp http, String name) {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(http.scrape().value("jvm_sentinel_target_up", Map.of("target", name)))
                    .contains(1.0));
  }

  /** Waits (up to 30 s) until the daemon streams JFR from the target {@code name}. */
  static void awaitJfrStreaming(DaemonHttp http, String name) {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        http.scrape().value("jvm_sentinel_jfr_available", Map.of("target", name)))
                    .contains(1.0));
  }

  /** Alerts to a webhook, and evidence snapshots to {@code snapshots} ("" for none). */
  static String webhookAndSnapshots(String webhookUrl, String snapshots) {
    return webhookAndSnapshots(webhookUrl, snapshots, "");
  }

  /** The same, with more of {@code detection:} ({@code detection} lines, indented 2). */
  static String webhookAndSnapshots(String webhookUrl, String snapshots, String detection) {
    return """
        alerts:
          sinks:
            webhook:
              url: %s
        detection:
          snapshots:
            directory: "%s"
        """
            .formatted(webhookUrl, snapshots)
        + detection;
  }

  static String target(String name, String hostPort, String pollInterval) {
    return """
        targets:
          - name: %s
            jmx: %s
            pollInterval: %s
        """
        .formatted(name, hostPort, pollInterval);
  }
}
