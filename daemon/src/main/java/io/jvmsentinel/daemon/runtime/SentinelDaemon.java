package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jmx.CompilerThreadCpuPoller;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.SignalRecorder;
import io.jvmsentinel.daemon.alert.WarmUp;
import io.jvmsentinel.daemon.alert.notify.Notifications;
import io.jvmsentinel.daemon.alert.rules.Rules;
import io.jvmsentinel.daemon.config.ConnectionConfig;
import io.jvmsentinel.daemon.config.DetectionConfig;
import io.jvmsentinel.daemon.config.JmxAddress;
import io.jvmsentinel.daemon.config.KeyStores;
import io.jvmsentinel.daemon.config.PidAddress;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.config.TargetAddress;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.detection.DetectionEngine;
import io.jvmsentinel.daemon.detection.EvidenceSnapshots;
import io.jvmsentinel.daemon.export.AlertsRoute;
import io.jvmsentinel.daemon.export.HttpAccess;
import io.jvmsentinel.daemon.export.HttpEndpoint;
import io.jvmsentinel.daemon.export.PrometheusRoute;
import io.jvmsentinel.daemon.export.RedactedArguments;
import io.jvmsentinel.daemon.export.StatusRoutes;
import io.jvmsentinel.daemon.export.TargetReportRoutes;
import io.jvmsentinel.daemon.export.datadog.DatadogExport;
import io.jvmsentinel.daemon.export.otlp.OtlpExport;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.jfr.RecordingOwner;
import io.jvmsentinel.daemon.jfr.StreamDirectories;
import io.jvmsentinel.daemon.target.AttachConnector;
import io.jvmsentinel.daemon.target.Backoff;
import io.jvmsentinel.daemon.target.Connector;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.ParallelClose;
import io.jvmsentinel.daemon.target.RemoteJmxConnector;
import io.jvmsentinel.daemon.target.RmiTimeouts;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.target.TlsJmxConnector;
import io.jvmsentinel.daemon.tls.SslContexts;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.jvmsentinel.daemon.web.AlertPageLinks;
import io.jvmsentinel.daemon.web.RecentAlerts;
import io.jvmsentinel.daemon.web.StatusPage;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The running daemon: one session per target, one registry, one HTTP endpoint. */
@SuppressWarnings("deprecation") // the simpleclient registry is deprecated upstream; see pom
public final class SentinelDaemon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SentinelDaemon.class);
  // All targets close at once under this one deadline (each waits on its own, possibly hung,
  // target); well inside Kubernetes' default 30 s grace period.
  private static final Duration CLOSE_TARGETS_WITHIN = Duration.ofSeconds(10);

  private final PrometheusMeterRegistry registry;
  private final List<WatchedTarget> targets;
  private final Notifications notifications;
  private final EvidenceSnapshots snapshots;
  private final DetectionEngine detection;
  private final HttpEndpoint http;
  private final DatadogExport datadog;
  private final OtlpExport otlp;

  private SentinelDaemon(
      PrometheusMeterRegistry registry,
      List<WatchedTarget> targets,
      Notifications notifications,
      EvidenceSnapshots snapshots,
      DetectionEngine detection,
      HttpEndpoint http,
      DatadogExport datadog,
      OtlpExport otlp) {
    this.registry = registry;
    this.targets = targets;
    this.notifications = notifications;
    this.snapshots = snapshots;
    this.detection = detection;
    this.http = http;
    this.datadog = datadog;
    this.otlp = otlp;
  }

  /** Starts watching every configured target and serving HTTP; returns once the port is bound. */
  public static SentinelDaemon start(SentinelConfig config) throws IOException {
    ConnectionConfig connection = config.connection();
    RmiTimeouts.install(connection.connectTimeout(), connection.callTimeout());
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    config.tags().forEach((key, value) -> registry.config().commonTags(key, value));

    StreamDirectories directories = StreamDirectories.inTempDir();
    directories.removeOrphans();
    RecordingOwner recordingOwner = RecordingOwner.forThisProcess();
    DetectionConfig detectionConfig = config.detection();
    // Snapshots need the stream to keep its last minutes locally.
    Duration localRetention =
        detectionConfig.enabled() && detectionConfig.snapshotDirectory().isPresent()
            ? detectionConfig.snapshotWindow()
            : Duration.ZERO;
    List<WatchedTarget> targets = new ArrayList<>();
    for (TargetConfig target : config.targets()) {
      targets.add(watch(target, config, registry, directories, recordingOwner, localRetention));
    }
    DatadogExport datadog;
    try {
      datadog = DatadogExport.create(config.datadog(), registry);
    } catch (IOException e) {
      targets.forEach(WatchedTarget::close);
      throw e;
    }
    Notifications notifications =
        Notifications.start(config.alerts(), datadog.notifiers(), registry);
    EvidenceSnapshots snapshots =
        detectionConfig.snapshotDirectory().isPresent()
            ? new EvidenceSnapshots(
                detectionConfig.snapshotDirectory().get(),
                detectionConfig.snapshotMaxSizeMb() * 1024 * 1024,
                targets.stream()
                    .collect(Collectors.toMap(WatchedTarget::name, WatchedTarget::stream)))
            : EvidenceSnapshots.disabled();
    RuleSettings ruleSettings =
        new RuleSettings(
            detectionConfig.rules(), detectionConfig.targets(), detectionConfig.disabled());
    // The status page lists recent alerts; notifications link to it when externalUrl is set.
    RecentAlerts recentAlerts = new RecentAlerts(notifications);
    DetectionEngine detection =
        new DetectionEngine(
            targets,
            // Disabled detection still samples: windowed reports read the signal history.
            detectionConfig.enabled() ? Rules.all() : List.of(),
            ruleSettings,
            new AlertPageLinks(config.http().externalUrl(), recentAlerts),
            snapshots,
            registry,
            Clock.systemUTC(),
            detectionConfig.interval(),
            new WarmUp(detectionConfig.warmup(), detectionConfig.warmupMax()),
            config.alerts().stateFile().map(AlertStateFile::at).orElseGet(AlertStateFile::none),
            config.alerts().restoreGrace(),
            detectionConfig
                .recordDirectory()
                .map(SignalRecorder::to)
                .orElseGet(SignalRecorder::none));
    StatusRoutes status =
        new StatusRoutes(
            () -> targets,
            detection::warmingUp,
            new RedactedArguments(config.http().maskArguments()));
    Map<String, HttpEndpoint.Route> routes =
        new HashMap<>(
            Map.of(
                "/metrics",
                new PrometheusRoute(registry),
                "/health",
                status.health(),
                "/ready",
                status.ready(),
                "/api/v1/targets",
                status.targets(),
                "/api/v1/alerts",
                new AlertsRoute(detection),
                TargetReportRoutes.PREFIX,
                new TargetReportRoutes(
                    () -> targets,
                    detection::history,
                    name -> StatusPage.stormThreshold(ruleSettings, name))));
    routes.putAll(StatusPage.routes(detection, recentAlerts, detectionConfig.snapshotDirectory()));
    HttpEndpoint http;
    try {
      http =
          HttpEndpoint.start(
              config.http().listen().toSocketAddress(),
              routes,
              serverTls(config),
              HttpAccess.of(config.http().auth(), registry));
    } catch (IOException e) {
      detection.close();
      snapshots.close();
      notifications.close();
      datadog.close();
      targets.forEach(WatchedTarget::close);
      throw new IOException(
          "cannot listen on " + config.http().listen() + ": " + e.getMessage(), e);
    }
    targets.forEach(WatchedTarget::start);
    detection.start();
    datadog.start();
    OtlpExport otlp = OtlpExport.start(config.otlp(), registry);
    log.info(
        "jvm-sentinel serving {}://{}:{}/metrics ({}) for {} target(s): {}",
        config.http().tls().isPresent() ? "https" : "http",
        config.http().listen().anyHost() ? "0.0.0.0" : config.http().listen().host(),
        http.port(),
        config.http().auth().describe(),
        targets.size(),
        targets.stream().map(WatchedTarget::name).toList());
    return new SentinelDaemon(
        registry, List.copyOf(targets), notifications, snapshots, detection, http, datadog, otlp);
  }

  private static WatchedTarget watch(
      TargetConfig target,
      SentinelConfig config,
      PrometheusMeterRegistry registry,
      StreamDirectories directories,
      RecordingOwner recordingOwner,
      Duration localRetention) {
    Tags tags = Tags.of("target", target.name());
    for (Map.Entry<String, String> tag : target.tags().entrySet()) {
      tags = tags.and(tag.getKey(), tag.getValue());
    }
    TargetSession session = newSession(target, config.connection(), registry, tags);
    JfrHandlers handlers = JfrHandlers.create(tags);
    JfrStreamSession stream =
        new JfrStreamSession(
            target.name(),
            handlers.all(),
            config.jfr(),
            () -> session.pollers().identity().identity(),
            registry,
            tags,
            directories,
            recordingOwner,
            localRetention);
    session.addListener(stream);
    // Compiler CPU seconds: jdk.ThreadCPULoad is a fraction of all the target's processors.
    handlers.compilerCpu().processors(session.pollers().process()::availableProcessors);
    // Compiler-thread CPU from thread dumps, only while the target has no JFR stream.
    session.addPoller(
        new CompilerThreadCpuPoller(
            handlers.compilerCpu(), () -> !stream.streaming(), Clock.systemUTC()));
    return new WatchedTarget(session, handlers, stream);
  }

  private static TargetSession newSession(
      TargetConfig target,
      ConnectionConfig connection,
      PrometheusMeterRegistry registry,
      Tags tags) {
    return new TargetSession(
        target.name(),
        connector(target, connection),
        target.pollInterval(),
        connection.callTimeout(),
        new Backoff(
            connection.reconnectInitialDelay(),
            connection.reconnectMaxDelay(),
            () -> ThreadLocalRandom.current().nextDouble()),
        registry,
        tags,
        Clock.systemUTC());
  }

  private static Connector connector(TargetConfig target, ConnectionConfig connection) {
    TargetAddress address = target.address();
    if (address instanceof PidAddress pid) {
      return new AttachConnector(pid.pid(), connection.connectTimeout(), connection.callTimeout());
    }
    Credentials credentials =
        new Credentials(
            target.username().orElse(null),
            target.password().map(secret -> secret.value().toCharArray()).orElse(null));
    JMXServiceURL url = ((JmxAddress) address).toJmxServiceUrl();
    if (target.tls().isPresent()) {
      return new TlsJmxConnector(
          target.name(),
          url,
          target.tls().get(),
          credentials,
          connection.connectTimeout(),
          connection.callTimeout());
    }
    return new RemoteJmxConnector(
        url, credentials, connection.connectTimeout(), connection.callTimeout());
  }

  /** The HTTPS context of {@code http.tls}; its store was opened once already by the loader. */
  private static Optional<SSLContext> serverTls(SentinelConfig config) throws IOException {
    if (config.http().tls().isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(SslContexts.server(config.http().tls().get()));
    } catch (KeyStores.StoreException e) {
      throw new IOException("http.tls.keyStore: " + e.getMessage(), e);
    }
  }

  /** The bound HTTP port (useful when configured as 0). */
  public int httpPort() {
    return http.port();
  }

  public List<TargetSession> sessions() {
    return targets.stream().map(WatchedTarget::session).toList();
  }

  public DetectionEngine detection() {
    return detection;
  }

  public List<WatchedTarget> targets() {
    return targets;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    http.close();
    detection.close();
    snapshots.close();
    notifications.close();
    datadog.close(); // after the notifications: the Datadog sink drains into its client
    otlp.close(); // pushes the last values while the targets' meters still read them
    ParallelClose.closeAll(targets, WatchedTarget::name, CLOSE_TARGETS_WITHIN);
    registry.close();
  }
}
