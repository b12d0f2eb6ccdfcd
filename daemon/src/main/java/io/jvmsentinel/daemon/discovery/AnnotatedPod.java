package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.jvmsentinel.daemon.config.JmxAddress;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.identity.PodIdentity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Turns one pod into a target when it opts in: {@code <prefix>scrape: "true"} and {@code
 * <prefix>jmx-port}, optionally {@code <prefix>target} (the name) and {@code <prefix>container}
 * (the tag, when the JMX port is not declared by a container), and {@code <prefix>jmx-auth: "none"}
 * (its JMX needs no password). Only a running pod with an IP that is not being deleted is a target:
 * the others cannot answer, and a restart brings a new IP anyway. The target carries no
 * credentials: {@link PodAccess} decides what this pod may receive.
 */
final class AnnotatedPod {
  static final String SCRAPE = "scrape";
  static final String JMX_PORT = "jmx-port";
  static final String TARGET = "target";
  static final String CONTAINER = "container";
  static final String JMX_AUTH = "jmx-auth";
  static final String NO_AUTH = "none";
  private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

  private final KubernetesDiscoveryConfig settings;

  AnnotatedPod(KubernetesDiscoveryConfig settings) {
    this.settings = settings;
  }

  /** Whether the pod asks to be watched and passes the filters (running or not). */
  boolean optedIn(Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    return "true".equalsIgnoreCase(annotation(pod, SCRAPE).orElse(""))
        && settings.watches(namespace, labels(pod))
        && settings.node().map(node -> node.equals(pod.getSpec().getNodeName())).orElse(true);
  }

  /**
   * The pod's target, or empty when it is not one (yet).
   *
   * @param problems told why an opted-in pod cannot be watched (a bad annotation)
   */
  Optional<TargetConfig> target(Pod pod, Consumer<String> problems) {
    if (!optedIn(pod) || !running(pod)) {
      return Optional.empty();
    }
    String where = "pod " + id(pod);
    Optional<String> portText = annotation(pod, JMX_PORT);
    if (portText.isEmpty()) {
      problems.accept(where + ": " + key(SCRAPE) + " is true but " + key(JMX_PORT) + " is not set");
      return Optional.empty();
    }
    int port = port(portText.get());
    if (port == 0) {
      problems.accept(
          where
              + ": "
              + key(JMX_PORT)
              + " is \""
              + portText.get()
              + "\"; give a port number 1..65535");
      return Optional.empty();
    }
    String name = annotation(pod, TARGET).orElse(id(pod));
    if (!NAME.matcher(name).matches()) {
      problems.accept(where + ": " + key(TARGET) + " \"" + name + "\" must match [a-zA-Z0-9_.-]+");
      return Optional.empty();
    }
    String ip = pod.getStatus().getPodIP();
    JmxAddress address = JmxAddress.parse((ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port);
    return Optional.of(
        new TargetConfig(
            name,
            address,
            Optional.empty(),
            Optional.empty(),
            settings.pollInterval(),
            tags(pod, port)));
  }

  /** Whether the pod says its JMX needs no password ({@code <prefix>jmx-auth: none}). */
  boolean needsNoAuth(Pod pod) {
    return NO_AUTH.equalsIgnoreCase(annotation(pod, JMX_AUTH).orElse(""));
  }

  /** {@code namespace.pod}: unique in the cluster, and what {@code kubectl} users look for. */
  static String id(Pod pod) {
    return pod.getMetadata().getNamespace() + "." + pod.getMetadata().getName();
  }

  private static boolean running(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() == null
        && pod.getStatus() != null
        && "Running".equals(pod.getStatus().getPhase())
        && pod.getStatus().getPodIP() != null
        && !pod.getStatus().getPodIP().isEmpty();
  }

  // Every target of this source has the same keys (one label set per metric name).
  private Map<String, String> tags(Pod pod, int port) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(PodIdentity.NAMESPACE_TAG, pod.getMetadata().getNamespace());
    tags.put(PodIdentity.POD_TAG, pod.getMetadata().getName());
    tags.put(
        PodIdentity.CONTAINER_TAG,
        annotation(pod, CONTAINER).orElseGet(() -> container(pod, port)));
    tags.put(PodIdentity.NODE_TAG, Objects.requireNonNullElse(pod.getSpec().getNodeName(), ""));
    Map<String, String> labels = labels(pod);
    settings.labelTags().forEach((tag, label) -> tags.put(tag, labels.getOrDefault(label, "")));
    return tags;
  }

  /** The container that declares the JMX port; else the pod's only (or first) container. */
  private static String container(Pod pod, int port) {
    List<Container> containers = pod.getSpec().getContainers();
    return containers.stream()
        .filter(
            c ->
                c.getPorts().stream()
                    .map(ContainerPort::getContainerPort)
                    .anyMatch(p -> p != null && p == port))
        .findFirst()
        .or(() -> containers.stream().findFirst())
        .map(Container::getName)
        .orElse("");
  }

  private Optional<String> annotation(Pod pod, String name) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null
        ? Optional.empty()
        : Optional.ofNullable(annotations.get(settings.annotationPrefix() + name))
            .map(String::strip);
  }

  String key(String name) {
    return settings.annotationPrefix() + name;
  }

  static Map<String, String> labels(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      return port >= 1 && port <= 65_535 ? port : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
