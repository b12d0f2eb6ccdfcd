package io.jvmsentinel.daemon.identity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which Kubernetes pod and container a target JVM runs in, and on which node: what tells two
 * replicas of one app apart. Each part is "" when unknown (a JVM outside Kubernetes knows none).
 *
 * <p>It travels as four tags of the target ({@link #tags()}): every series, alert label and event
 * of the target carries them, and {@link #fromTags} reads them back where an alert is identified.
 * The pod identity of a sidecar comes from downward-API environment variables ({@link
 * #fromEnvironment}); discovery knows it from the pod it found.
 *
 * @param namespace the pod's namespace
 * @param pod the pod's name
 * @param container the name of the container the JVM runs in (for a sidecar: the app's container,
 *     not the sidecar's)
 * @param node the node the pod runs on
 */
public record PodIdentity(String namespace, String pod, String container, String node) {
  public static final String NAMESPACE_TAG = "namespace";
  public static final String POD_TAG = "pod";
  public static final String CONTAINER_TAG = "container";
  public static final String NODE_TAG = "node";

  /** The tag keys, in the order series carry them. */
  public static final List<String> TAG_KEYS =
      List.of(NAMESPACE_TAG, POD_TAG, CONTAINER_TAG, NODE_TAG);

  /** {@code fieldRef: metadata.namespace}. */
  public static final String NAMESPACE_ENV = "JVM_SENTINEL_POD_NAMESPACE";

  /** {@code fieldRef: metadata.name}. */
  public static final String POD_ENV = "JVM_SENTINEL_POD_NAME";

  /** The watched app container's name, written literally (the downward API has no field for it). */
  public static final String CONTAINER_ENV = "JVM_SENTINEL_CONTAINER_NAME";

  /** {@code fieldRef: spec.nodeName}. */
  public static final String NODE_ENV = "JVM_SENTINEL_NODE_NAME";

  /** The environment variables, in {@link #TAG_KEYS} order. */
  public static final List<String> ENV_VARS =
      List.of(NAMESPACE_ENV, POD_ENV, CONTAINER_ENV, NODE_ENV);

  /** A JVM outside Kubernetes, or one whose pod is not known. */
  public static final PodIdentity NONE = new PodIdentity("", "", "", "");

  public PodIdentity {
    namespace = clean(namespace);
    pod = clean(pod);
    container = clean(container);
    node = clean(node);
  }

  /** From the downward-API variables; a variable not set (or blank) leaves its part unknown. */
  public static PodIdentity fromEnvironment(Function<String, String> env) {
    return new PodIdentity(
        env.apply(NAMESPACE_ENV),
        env.apply(POD_ENV),
        env.apply(CONTAINER_ENV),
        env.apply(NODE_ENV));
  }

  /** The identity a target's tags carry ({@link #tags()}); parts it lacks are unknown. */
  public static PodIdentity fromTags(Map<String, String> tags) {
    return new PodIdentity(
        tags.get(NAMESPACE_TAG), tags.get(POD_TAG), tags.get(CONTAINER_TAG), tags.get(NODE_TAG));
  }

  /** Whether the pod is known: only then does the identity tell replicas apart. */
  public boolean inPod() {
    return !pod.isEmpty();
  }

  /** The known parts as tags, in {@link #TAG_KEYS} order; empty outside Kubernetes. */
  public Map<String, String> tags() {
    Map<String, String> tags = new LinkedHashMap<>();
    put(tags, NAMESPACE_TAG, namespace);
    put(tags, POD_TAG, pod);
    put(tags, CONTAINER_TAG, container);
    put(tags, NODE_TAG, node);
    return tags;
  }

  /**
   * {@code namespace/pod/container}: unique among the JVMs of a cluster at a time, and stable while
   * the pod lives (the node is left out: a pod never moves). Empty when the pod is not known.
   */
  public Optional<String> podPath() {
    return inPod() ? Optional.of(namespace + "/" + pod + "/" + container) : Optional.empty();
  }

  /** The same identity with the node filled in where this one does not know it. */
  public PodIdentity onNode(String knownNode) {
    return node.isEmpty() ? new PodIdentity(namespace, pod, container, knownNode) : this;
  }

  private static void put(Map<String, String> tags, String key, String value) {
    if (!value.isEmpty()) {
      tags.put(key, value);
    }
  }

  private static String clean(String value) {
    return Objects.requireNonNullElse(value, "").strip();
  }
}
