package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jmx.CompilerThreadCpuPoller;
import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertStateFile;
import io.jvmsentinel.daemon.alert.RuleCoverage;
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
import io.jvmsentinel.daemon.detection.SignalSource;
import io.jvmsentinel.daemon.discovery.KubernetesDiscovery;
import io.jvmsentinel.daemon.discovery.LocalDiscovery;
import io.jvmsentinel.daemon.export.datadog.DatadogExport;
import io.jvmsentinel.daemon.export.otlp.OtlpExport;
import io.jvmsentinel.daemon.http.AlertsRoute;
import io.jvmsentinel.daemon.http.HttpAccess;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import io.jvmsentinel.daemon.http.PrometheusRoute;
import io.jvmsentinel.daemon.http.RedactedArguments;
import io.jvmsentinel.daemon.http.StatusRoutes;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.jfr.LocalJfrStorage;
import io.jvmsentinel.daemon.jfr.RecordingOwner;
import io.jvmsentinel.daemon.support.Backoff;
import io.jvmsentinel.daemon.support.Causes;
import io.jvmsentinel.daemon.target.AttachConnector;
import io.jvmsentinel.daemon.target.Connector;
import io.jvmsentinel.daemon.target.Credentials;
import io.jvmsentinel.daemon.target.PollWatchdog;
import io.jvmsentinel.daemon.target.RemoteAgentConnector;
import io.jvmsentinel.daemon.target.RemoteJmxConnector;
import io.jvmsentinel.daemon.target.RmiTimeouts;
import io.jvmsentinel.daemon.target.TargetReplyFilter;
import io.jvmsentinel.daemon.target.TargetSession;
import io.jvmsentinel.daemon.target.TlsJmxConnector;
import io.jvmsentinel.daemon.tls.NodeCa;
import io.jvmsentinel.daemon.tls.SslContexts;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.jvmsentinel.daemon.web.AlertPageLinks;
import io.jvmsentinel.daemon.web.RecentAlerts;
import io.jvmsentinel.daemon.web.StatusPage;
import io.jvmsentinel.daemon.web.TargetReportRoutes;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.management.remote.JMXServiceURL;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The running daemon: one session per target, one registry, one HTTP endpoint. */
@SuppressWarnings("deprecation") // the simpleclient registry is deprecated upstream; see pom
public final class SentinelDaemon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SentinelDaemon.class);

  /** The source name of the targets of the configuration file and command line. */
  public static final String CONFIG_FILE = "config";

  /** The source name of the targets {@code --discover local} finds. */
  public static final String LOCAL_DISCOVERY = "discovery.local";

  /** The source name of the targets {@code discovery.kubernetes} finds. */
  public static final String KUBERNETES_DISCOVERY = "discovery.kubernetes";

  private final PrometheusMeterRegistry registry;
  private final LiveTargets targets;
  private final Notifications notifications;
  private final EvidenceSnapshots snapshots;
  private final DetectionEngine detection;
  private final HttpEndpoint http;
  private final DatadogExport datadog;
  private final OtlpExport otlp;
  private final Optional<LocalDiscovery> discovery;
  private final Optional<KubernetesDiscovery> kubernetes;

  private SentinelDaemon(
      PrometheusMeterRegistry registry,
      LiveTargets targets,
      Notifications notifications,
      EvidenceSnapshots snapshots,
      DetectionEngine detection,
      HttpEndpoint http,
      DatadogExport datadog,
      OtlpExport otlp,
      Optional<LocalDiscovery> discovery,
      Optional<KubernetesDiscovery> kubernetes) {
    this.registry = registry;
    this.targets = targets;
    this.notifications = notifications;
    this.snapshots = snapshots;
    this.detection = detection;
    this.http = http;
    this.datadog = datadog;
    this.otlp = otlp;
    this.discovery = discovery;
    this.kubernetes = kubernetes;
  }

  /** Starts watching every configured target and serving HTTP; returns once the port is bound. */
  public static SentinelDaemon start(SentinelConfig config) throws IOException {
    return start(config, notification -> {});
  }

  /**
   * As {@link #start(SentinelConfig)}; {@code watcher} is also told of every notification, in the
   * order the sinks are (the demo's terminal). It must not block.
   */
  public static SentinelDaemon start(SentinelConfig config, AlertListener watcher)
      throws IOException {
    ClientCertificateWarnings.log(config.targets()); // before any target's first refusal
    ConnectionConfig connection = config.connection();
    RmiTimeouts.install(connection.connectTimeout(), connection.callTimeout());
    TargetReplyFilter.install();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    config.tags().forEach((key, value) -> registry.config().commonTags(key, value));

    LocalJfrStorage storage =
        LocalJfrStorage.of(
            Path.of(System.getProperty("java.io.tmpdir")), config.storage(), config.jfr());
    storage.directories().removeOrphans();
    RecordingOwner recordingOwner = RecordingOwner.forThisProcess();
    DetectionConfig detectionConfig = config.detection();
    // Snapshots need an evidence recording on each target that keeps the window.
    Duration evidenceWindow =
        detectionConfig.enabled() && detectionConfig.snapshotDirectory().isPresent()
            ? detectionConfig.snapshotWindow()
            : Duration.ZERO;
    // One poll watchdog thread for every target's session.
    PollWatchdog pollWatchdog = new PollWatchdog();
    LiveTargets targets =
        new LiveTargets(
            target ->
                watch(
                    target,
                    config,
                    registry,
                    storage,
                    recordingOwner,
                    evidenceWindow,
                    pollWatchdog),
            registry,
            config.maxTargets());
    // Before detection is built: it takes back the firing alerts of the targets it knows.
    targets.want(CONFIG_FILE, config.targets());
    DatadogExport datadog;
    try {
      datadog = DatadogExport.create(config.datadog(), registry);
    } catch (IOException e) {
      targets.close();
      throw e;
    }
    Notifications notifications =
        Notifications.start(config.alerts(), datadog.notifiers(), registry);
    EvidenceSnapshots snapshots =
        detectionConfig.snapshotDirectory().isPresent()
            ? new EvidenceSnapshots(
                detectionConfig.snapshotDirectory().get(),
                // The snapshots' part of the one disk budget, when smaller than their own cap.
                Math.min(
                    detectionConfig.snapshotMaxSizeMb() * 1024 * 1024,
                    storage.budget().snapshotBytes()),
                storage.budget()::bytesPerDump,
                detectionConfig.snapshotWindow(),
                targets::stream)
            : EvidenceSnapshots.disabled();
    RuleSettings ruleSettings =
        new RuleSettings(
            detectionConfig.rules(), detectionConfig.targets(), detectionConfig.disabled());
    // The status page lists recent alerts; notifications link to it when externalUrl is set.
    RecentAlerts recentAlerts = new RecentAlerts(notifications.andThen(watcher));
    DetectionEngine detection =
        new DetectionEngine(
            SignalSource.watching(targets::list),
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
            targets::list,
            detection::warmingUp,
            new RedactedArguments(config.http().maskArguments(), config.http().showProperties()),
            new RuleCoverage(
                Rules.all(), ruleSettings, detectionConfig.enabled(), detectionConfig.interval()));
    HttpAccess access = HttpAccess.of(config.http().auth(), config.http().openMetrics(), registry);
    Map<String, HttpEndpoint.Route> routes =
        new HashMap<>(
            Map.of(
                "/metrics",
                new PrometheusRoute(registry),
                "/health",
                status.health(),
                "/ready",
                status.ready(access::credentialed),
                "/api/v1/targets",
                status.targets(),
                "/api/v1/alerts",
                new AlertsRoute(detection),
                TargetReportRoutes.PREFIX,
                new TargetReportRoutes(
                    targets::list,
                    detection::history,
                    name -> StatusPage.stormThreshold(ruleSettings, name))));
    routes.putAll(StatusPage.routes(detection, recentAlerts, detectionConfig.snapshotDirectory()));
    HttpEndpoint http;
    try {
      http =
          HttpEndpoint.start(
              config.http().listen().toSocketAddress(), routes, serverTls(config), access);
    } catch (IOException e) {
      detection.close();
      snapshots.close();
      notifications.close();
      datadog.close();
      targets.close();
      // A port in use is the usual cause (a second daemon or demo on 9404): say how to move.
      // Jetty reports it as an IOException caused by the JDK's BindException.
      String hint =
          Causes.find(e, BindException.class).isPresent()
              ? " (is another process listening there? choose another address with --listen"
                  + " HOST:PORT or http.listen)"
              : "";
      throw new IOException(
          "cannot listen on " + config.http().listen() + ": " + e.getMessage() + hint, e);
    }
    detection.start();
    datadog.start();
    OtlpExport otlp = OtlpExport.start(config.otlp(), registry);
    Optional<LocalDiscovery> discovery =
        config
            .localDiscovery()
            .map(
                settings ->
                    LocalDiscovery.forThisHost(
                        settings, found -> targets.want(LOCAL_DISCOVERY, found), System::getenv));
    discovery.ifPresent(LocalDiscovery::start);
    Optional<KubernetesDiscovery> kubernetes =
        config
            .kubernetesDiscovery()
            .map(
                settings ->
                    KubernetesDiscovery.create(
                        settings, found -> targets.want(KUBERNETES_DISCOVERY, found)));
    kubernetes.ifPresent(KubernetesDiscovery::start);
    log.info(
        "jvm-sentinel serving {}://{}:{}/metrics ({}) for {} target(s): {}",
        config.http().tls().isPresent() ? "https" : "http",
        config.http().listen().anyHost() ? "0.0.0.0" : config.http().listen().host(),
        http.port(),
        config.http().auth().describe(),
        targets.list().size(),
        targets.list().stream().map(WatchedTarget::name).toList());
    return new SentinelDaemon(
        registry,
        targets,
        notifications,
        snapshots,
        detection,
        http,
        datadog,
        otlp,
        discovery,
        kubernetes);
  }

  private static WatchedTarget watch(
      TargetConfig target,
      SentinelConfig config,
      PrometheusMeterRegistry registry,
      LocalJfrStorage storage,
      RecordingOwner recordingOwner,
      Duration evidenceWindow,
      PollWatchdog pollWatchdog) {
    // Every target carries every key (fixed at start-up), so sources may tag differently.
    Tags tags = Tags.of("target", target.name());
    for (Map.Entry<String, String> tag : config.tagKeys().complete(target.tags()).entrySet()) {
      tags = tags.and(tag.getKey(), tag.getValue());
    }
    TargetSession session = newSession(target, config.connection(), registry, tags, pollWatchdog);
    JfrHandlers handlers = JfrHandlers.create(tags);
    JfrStreamSession stream =
        new JfrStreamSession(
            target.name(),
            handlers.all(),
            config.jfr(),
            () -> session.pollers().identity().identity(),
            registry,
            tags,
            storage,
            recordingOwner,
            evidenceWindow,
            Clock.systemUTC(),
            JfrStreamSession.newThread(target.name()));
    session.addListener(stream);
    // Compiler CPU seconds: jdk.ThreadCPULoad is a fraction of all the target's processors.
    handlers.compilerCpu().processors(session.pollers().process()::availableProcessors);
    // Compiler-thread CPU from thread dumps, only while the target has no JFR stream.
    session.addPoller(
        new CompilerThreadCpuPoller(
            handlers.compilerCpu(), () -> !stream.streaming(), Clock.systemUTC()));
    // ThreadStorm and LockContention judge windows of seconds: without JFR events, read the JMX
    // values detection needs every second (threadPrint, a safepoint, stays at the poll interval).
    session.pollDetectionSignals(
        config.detection().signalPollInterval(), () -> !stream.streaming());
    return new WatchedTarget(session, handlers, stream);
  }

  private static TargetSession newSession(
      TargetConfig target,
      ConnectionConfig connection,
      PrometheusMeterRegistry registry,
      Tags tags,
      PollWatchdog pollWatchdog) {
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
        Clock.systemUTC(),
        pollWatchdog);
  }

  /**
   * The CA of the agents this daemon process starts: made when the first one is needed (a sidecar
   * never pays for it), then one for the process, held in its heap only.
   */
  private static final class NodeAgentCa {
    static final NodeCa CA = NodeCa.generate("jvm-sentinel node agent");
  }

  private static Connector connector(TargetConfig target, ConnectionConfig connection) {
    TargetAddress address = target.address();
    if (address instanceof PidAddress pid) {
      return switch (pid.agent()) {
        case LOCAL ->
            new AttachConnector(pid.pid(), connection.connectTimeout(), connection.callTimeout());
        case REMOTE ->
            new RemoteAgentConnector(
                pid.pid(),
                pid.allowHostNetwork(),
                NodeAgentCa.CA,
                connection.connectTimeout(),
                connection.callTimeout());
      };
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
    return targets.list().stream().map(WatchedTarget::session).toList();
  }

  public DetectionEngine detection() {
    return detection;
  }

  /** The targets watched now. */
  public List<WatchedTarget> targets() {
    return targets.list();
  }

  /** The live target set: sources (a reloaded file, discovery) say here which targets they want. */
  public LiveTargets liveTargets() {
    return targets;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    discovery.ifPresent(LocalDiscovery::close);
    kubernetes.ifPresent(KubernetesDiscovery::close);
    http.close();
    detection.close();
    snapshots.close();
    notifications.close();
    datadog.close(); // after the notifications: the Datadog sink drains into its client
    otlp.close(); // pushes the last values while the targets' meters still read them
    targets.close();
    registry.close();
  }
}
