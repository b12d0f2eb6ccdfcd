package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.support.DaemonThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code kubernetes} discovery provider: watches pods through the API server with an informer
 * (one list, then a watch; no polling) and hands the whole set of annotated pods, as targets, to
 * the daemon after every change. A restarted pod comes back with a new IP, so its target restarts
 * at the new address; a deleted pod drops out.
 *
 * <p>A pod's target carries only the credentials {@link PodAccess} allows it (the allow-list of
 * {@code credentials}, its namespace's own Secret, read by {@link NamespaceSecrets}); a Secret that
 * is read or changes publishes the list again.
 *
 * <p>When the API server cannot be reached or refuses (403: missing RBAC), the informer keeps the
 * pods it knows, so the targets stay, and retries with backoff; once it lists again, the targets
 * follow what it finds.
 *
 * <p>Threads: each informer (one per namespace, or one for all) calls {@link Changes} on its own
 * thread; {@link #publish} is synchronized, so the lists reach the daemon one at a time and each is
 * computed from the stores as they are then (never an older list after a newer one). A failed list
 * reaches {@link #apiError}; a broken watch is retried inside the informer silently, so the {@code
 * discovery-kubernetes} thread checks every 2 s whether the informers watch and says when that
 * changes.
 */
public final class KubernetesDiscovery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesDiscovery.class);
  // The informer's watch reconnects after this, doubling up to its own cap (about 32 s).
  private static final int WATCH_RECONNECT_MS = 1_000;
  private static final long HEALTH_CHECK_MS = 2_000;

  private final KubernetesDiscoveryConfig settings;
  private final KubernetesClient client;
  private final Consumer<List<TargetConfig>> targets;
  private final AnnotatedPod annotated;
  private final NamespaceSecrets secrets;
  private final PodAccess access;
  private final List<SharedIndexInformer<Pod>> informers = new ArrayList<>();
  // Guarded by this: what was handed over last, and the problems already warned about.
  private List<TargetConfig> published;
  private final Set<String> warned = new HashSet<>();
  private volatile boolean closed;
  // Guarded by this: whether all informers watch; null until the first watch is up or fails.
  private Boolean watching;
  private final ScheduledExecutorService health =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("discovery-kubernetes"));

  /**
   * @param client the API client (tests may point it at a mock API server); closed with this
   *     provider
   * @param targets receives the whole set of targets after every change
   */
  public KubernetesDiscovery(
      KubernetesDiscoveryConfig settings,
      KubernetesClient client,
      Consumer<List<TargetConfig>> targets) {
    this.settings = settings;
    this.client = client;
    this.targets = targets;
    this.annotated = new AnnotatedPod(settings);
    this.secrets =
        new NamespaceSecrets(client, this::publish, System::nanoTime, settings.secretRefresh());
    this.access = new PodAccess(settings, annotated, secrets);
  }

  /** The provider with its own client, as {@link #client} builds it. */
  public static KubernetesDiscovery create(
      KubernetesDiscoveryConfig settings, Consumer<List<TargetConfig>> targets) {
    return new KubernetesDiscovery(settings, client(settings), targets);
  }

  /**
   * A client for {@code settings}: the pod's service account in a cluster, else the kubeconfig;
   * {@code apiServer} replaces the URL. Every request is bounded by the configured timeouts.
   */
  static KubernetesClient client(KubernetesDiscoveryConfig settings) {
    ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null));
    settings.apiServer().ifPresent(config::withMasterUrl);
    config
        .withConnectionTimeout((int) settings.connectTimeout().toMillis())
        .withRequestTimeout((int) settings.requestTimeout().toMillis())
        // The informer retries a failed list itself, with backoff, and tells us each time; the
        // client's own retries (ten, up to ~100 s in all) would only hide an outage from the log.
        .withRequestRetryBackoffLimit(0)
        .withWatchReconnectInterval(WATCH_RECONNECT_MS)
        .withWatchReconnectLimit(-1); // reconnect for as long as the daemon runs
    return new KubernetesClientBuilder().withConfig(config.build()).build();
  }

  /** Starts the informers; returns at once, before the first list, which may fail and retry. */
  public synchronized void start() {
    List<FilterWatchListDeletable<Pod, PodList, PodResource>> scopes = new ArrayList<>();
    if (settings.namespaces().isEmpty()) {
      scopes.add(client.pods().inAnyNamespace());
    } else {
      settings.namespaces().forEach(ns -> scopes.add(client.pods().inNamespace(ns)));
    }
    for (FilterWatchListDeletable<Pod, PodList, PodResource> scope : scopes) {
      FilterWatchListDeletable<Pod, PodList, PodResource> pods =
          settings.node().map(node -> scope.withField("spec.nodeName", node)).orElse(scope);
      SharedIndexInformer<Pod> informer = pods.runnableInformer(0);
      informer.addEventHandler(new Changes());
      informer.exceptionHandler(this::apiError);
      informers.add(informer);
      informer.start();
    }
    health.scheduleWithFixedDelay(
        this::checkWatching, HEALTH_CHECK_MS, HEALTH_CHECK_MS, TimeUnit.MILLISECONDS);
    log.info(
        "kubernetes discovery: watching pods annotated {}{}=true in {}{}",
        settings.annotationPrefix(),
        AnnotatedPod.SCRAPE,
        settings.namespaces().isEmpty() ? "every namespace" : settings.namespaces(),
        settings.node().map(node -> " on node " + node).orElse(""));
  }

  /** The targets of the pods the informers know now. */
  public List<TargetConfig> discover() {
    List<Pod> pods = new ArrayList<>();
    for (SharedIndexInformer<Pod> informer : informersNow()) {
      pods.addAll(informer.getStore().list());
    }
    // A stable order, so the same pods give the same list and the first of a name wins.
    pods.sort(Comparator.comparing(AnnotatedPod::id));
    Map<String, TargetConfig> byName = new LinkedHashMap<>();
    for (Pod pod : pods) {
      targetOf(pod)
          .ifPresent(
              target -> {
                TargetConfig first = byName.putIfAbsent(target.name(), target);
                if (first != null) {
                  warnOnce(
                      "duplicate " + target.name() + "/" + AnnotatedPod.id(pod),
                      "pod {} is not watched: another pod's target is named {} already; give each"
                          + " pod its own {}{} annotation",
                      AnnotatedPod.id(pod),
                      target.name(),
                      settings.annotationPrefix(),
                      AnnotatedPod.TARGET);
                }
              });
    }
    return List.copyOf(byName.values());
  }

  private synchronized List<SharedIndexInformer<Pod>> informersNow() {
    return List.copyOf(informers);
  }

  /** A pod the API server sent in a shape this code does not expect is skipped, not fatal. */
  private Optional<TargetConfig> targetOf(Pod pod) {
    try {
      return annotated
          .target(pod, problem -> {})
          .flatMap(
              target ->
                  access.grant(
                      pod,
                      target,
                      reason -> warnOnce("access " + AnnotatedPod.id(pod) + reason, "{}", reason)));
    } catch (RuntimeException e) {
      warnOnce(
          "unreadable " + pod.getMetadata().getUid(),
          "pod {} is not watched: cannot read it ({})",
          pod.getMetadata().getNamespace() + "." + pod.getMetadata().getName(),
          e.toString());
      return Optional.empty();
    }
  }

  private synchronized void warnOnce(String key, String message, Object... arguments) {
    if (warned.add(key)) {
      log.warn("kubernetes discovery: " + message, arguments);
    }
  }

  /** Hands the targets over if they changed; serialised, so an older list never wins. */
  private synchronized void publish() {
    if (closed) {
      return;
    }
    List<TargetConfig> now = discover();
    if (!now.equals(published)) {
      published = now;
      targets.accept(now);
    }
  }

  private synchronized boolean apiError(boolean started, Throwable error) {
    if (closed) {
      return false;
    }
    watching = false; // said here already; checkWatching says when it is back
    log.warn(
        "kubernetes discovery: {} ({}); keeping the {} current target(s), retrying",
        explain(error),
        client.getMasterUrl(),
        published == null ? 0 : published.size());
    return true; // the informer retries with backoff and relists: never give up on the API
  }

  private static String explain(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof KubernetesClientException api && api.getCode() > 0) {
        if (api.getCode() == 403 || api.getCode() == 401) {
          return "the API server refuses to list or watch pods ("
              + api.getCode()
              + "): give the daemon's service account get, list and watch on pods"
              + " (deploy/kubernetes/discovery-rbac.yaml)";
        }
        String status = api.getStatus() == null ? null : api.getStatus().getMessage();
        return "the API server answered " + api.getCode() + (status == null ? "" : ": " + status);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return "cannot reach the API server: " + rootCause(error);
  }

  /** The network error itself (refused, timed out, unknown host), not its async wrappers. */
  private static String rootCause(Throwable error) {
    Throwable cause = error;
    while (!(cause instanceof IOException)
        && cause.getCause() != null
        && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.toString();
  }

  /**
   * A broken watch is retried inside the informer without telling its exception handler, so the
   * state is checked here to say when the daemon stops (and starts again) following the cluster.
   */
  private void checkWatching() {
    boolean watching = informersNow().stream().allMatch(SharedIndexInformer::isWatching);
    synchronized (this) {
      if (closed || Boolean.valueOf(watching).equals(this.watching)) {
        return;
      }
      if (this.watching == null && !watching) {
        return; // still listing for the first time; a failure there is reported as it happens
      }
      Boolean before = this.watching;
      this.watching = watching;
      if (watching) {
        log.info(
            "kubernetes discovery: watching pods{} ({} target(s))",
            before == null ? "" : " again",
            published == null ? 0 : published.size());
      } else {
        log.warn(
            "kubernetes discovery: lost the watch on pods (cannot reach the API server);"
                + " keeping the {} current target(s), reconnecting",
            published == null ? 0 : published.size());
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    health.shutdownNow();
    secrets.close();
    informersNow().forEach(SharedIndexInformer::stop);
    client.close();
  }

  /**
   * Every change of a pod that is or was opted in: the whole list is computed again (cheap: the
   * store is in memory). The other pods of a cluster-wide watch change often and matter not.
   */
  private final class Changes implements ResourceEventHandler<Pod> {
    @Override
    public void onAdd(Pod pod) {
      if (optedIn(pod)) {
        explainIfBroken(pod);
        publish();
      }
    }

    @Override
    public void onUpdate(Pod before, Pod after) {
      boolean now = optedIn(after);
      if (!now && !optedIn(before)) {
        return;
      }
      if (now && !annotationsEqual(before, after)) {
        explainIfBroken(after);
      }
      publish();
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      if (optedIn(pod)) {
        publish();
      }
    }

    private boolean optedIn(Pod pod) {
      try {
        return annotated.optedIn(pod);
      } catch (RuntimeException e) {
        return true; // let targetOf, in publish, say what is wrong with it
      }
    }

    // Once per change of the pod's annotations or phase, not on every status update.
    private void explainIfBroken(Pod pod) {
      try {
        annotated.target(
            pod, problem -> log.warn("kubernetes discovery: {}; not watching it", problem));
      } catch (RuntimeException e) {
        // targetOf, in publish, says it once
      }
    }

    private boolean annotationsEqual(Pod before, Pod after) {
      return Objects.equals(
              before.getMetadata().getAnnotations(), after.getMetadata().getAnnotations())
          && Objects.equals(phase(before), phase(after));
    }

    private static String phase(Pod pod) {
      return pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }
  }
}
