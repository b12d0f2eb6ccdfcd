package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's {@link PodLookup}: the pods of its node from the Kubernetes API, by UID. The
 * pods are listed again when a process names a UID not seen yet (a pod started since), at most once
 * every {@link #RELIST_AFTER}, so one unknown UID (a pod the API does not show) costs one list per
 * interval, not one per discovery run. A failing API (down, or no RBAC to list pods) leaves the
 * processes without pod identity, warned once per kind of failure.
 */
public final class KubernetesPods implements PodLookup, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesPods.class);
  static final Duration RELIST_AFTER = Duration.ofSeconds(30);
  private static final String MIRROR = "kubernetes.io/config.mirror";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final KubernetesClient client;
  private final Optional<String> node;
  private final LongSupplier nanoTime;
  // Only the discovery thread calls find: no locking.
  private Map<String, Pod> byUid = Map.of();
  private long listedAt;
  private boolean listed;
  private String lastFailure = "";

  /**
   * @param client the API client (tests point it at a mock API server); closed with this lookup
   * @param node the node whose pods to list (the node agent's); empty lists the whole cluster
   */
  public KubernetesPods(KubernetesClient client, Optional<String> node, LongSupplier nanoTime) {
    this.client = client;
    this.node = node;
    this.nanoTime = nanoTime;
  }

  /** In a cluster, with the pod's service account; every request bounded by a timeout. */
  public static KubernetesPods inCluster(Optional<String> node) {
    Config config =
        new ConfigBuilder(Config.autoConfigure(null))
            .withConnectionTimeout((int) CONNECT_TIMEOUT.toMillis())
            .withRequestTimeout((int) REQUEST_TIMEOUT.toMillis())
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesPods(
        new KubernetesClientBuilder().withConfig(config).build(), node, System::nanoTime);
  }

  @Override
  public PodIdentity find(ProcessCgroup cgroup) {
    if (cgroup.podUid().isEmpty()) {
      return PodIdentity.NONE;
    }
    String uid = cgroup.podUid().get();
    Pod pod = byUid.get(uid);
    if (pod == null && (!listed || nanoTime.getAsLong() - listedAt >= RELIST_AFTER.toNanos())) {
      list();
      pod = byUid.get(uid);
    }
    return pod == null ? PodIdentity.NONE : identity(pod, cgroup.containerId());
  }

  private void list() {
    listed = true;
    listedAt = nanoTime.getAsLong();
    try {
      List<Pod> pods =
          node.map(n -> client.pods().inAnyNamespace().withField("spec.nodeName", n).list())
              .orElseGet(() -> client.pods().inAnyNamespace().list())
              .getItems();
      Map<String, Pod> index = new HashMap<>();
      for (Pod pod : pods) {
        index.put(pod.getMetadata().getUid(), pod);
        // A static pod's cgroup carries the hash of its manifest, which the mirror pod keeps here.
        Optional.ofNullable(pod.getMetadata().getAnnotations())
            .map(annotations -> annotations.get(MIRROR))
            .ifPresent(hash -> index.put(hash, pod));
      }
      byUid = index;
      lastFailure = "";
    } catch (RuntimeException e) { // KubernetesClientException, or a timeout the client wraps
      String failure =
          e instanceof KubernetesClientException k
              ? "HTTP " + k.getCode()
              : e.getClass().getSimpleName();
      if (!failure.equals(lastFailure)) {
        log.warn(
            "node agent: cannot list the pods{} to name JVMs after their pods ({}), so they are"
                + " named by main class until it can (RBAC: get and list pods): {}",
            node.map(n -> " of node " + n).orElse(""),
            failure,
            e.getMessage());
        lastFailure = failure;
      }
    }
  }

  /** The pod's identity, with the container whose status names this container id. */
  static PodIdentity identity(Pod pod, Optional<String> containerId) {
    return new PodIdentity(
        pod.getMetadata().getNamespace(),
        pod.getMetadata().getName(),
        container(pod, containerId),
        Objects.requireNonNullElse(pod.getSpec() == null ? null : pod.getSpec().getNodeName(), ""));
  }

  /**
   * The container by runtime id ({@code containerd://<id>}); without a match, the pod's only
   * container; else unknown (""), never a guess between several.
   */
  private static String container(Pod pod, Optional<String> containerId) {
    if (containerId.isPresent() && pod.getStatus() != null) {
      Optional<String> byId =
          Stream.of(
                  pod.getStatus().getContainerStatuses(),
                  pod.getStatus().getInitContainerStatuses())
              .filter(Objects::nonNull)
              .flatMap(List::stream)
              .filter(status -> status.getContainerID() != null)
              .filter(status -> status.getContainerID().endsWith("://" + containerId.get()))
              .map(ContainerStatus::getName)
              .findFirst();
      if (byId.isPresent()) {
        return byId.get();
      }
    }
    if (pod.getSpec() != null && pod.getSpec().getContainers().size() == 1) {
      return pod.getSpec().getContainers().get(0).getName();
    }
    return "";
  }

  @Override
  public void close() {
    client.close();
  }
}
