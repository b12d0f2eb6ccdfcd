package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code discovery.kubernetes}: watch the pods that opt in with annotations ({@code <prefix>scrape:
 * "true"}, {@code <prefix>jmx-port}), found through the Kubernetes API.
 *
 * @param apiServer the API server's URL; empty: in-cluster service account, else the kubeconfig
 * @param namespaces the namespaces to watch; empty means all
 * @param node only pods scheduled on this node (one daemon per node); empty: every node
 * @param annotationPrefix the prefix of the opt-in annotations, ending in {@code /}
 * @param include entries of which a pod must match one; empty means every annotated pod
 * @param exclude entries of pods never to watch; they win over include
 * @param labelTags tag key to the pod label whose value it carries (empty when the label is unset)
 * @param pollInterval the JMX poll interval of each discovered target
 * @param credentials who may receive which JMX credentials; the first entry that allows a pod
 *     applies; a pod no entry allows gets none (see {@code AnnotatedPod})
 * @param connectTimeout how long connecting to the API server may take
 * @param requestTimeout how long one API request (a list) may take
 */
public record KubernetesDiscoveryConfig(
    Optional<String> apiServer,
    List<String> namespaces,
    Optional<String> node,
    String annotationPrefix,
    List<PodMatch> include,
    List<PodMatch> exclude,
    Map<String, String> labelTags,
    Duration pollInterval,
    List<PodCredentials> credentials,
    Duration connectTimeout,
    Duration requestTimeout) {
  public static final String DEFAULT_ANNOTATION_PREFIX = "jvm-sentinel.io/";
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** The tags every discovered target carries, before the label tags, in this order. */
  public static final List<String> POD_TAGS = PodIdentity.TAG_KEYS;

  public KubernetesDiscoveryConfig {
    Objects.requireNonNull(apiServer, "apiServer");
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(annotationPrefix, "annotationPrefix");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    labelTags = Collections.unmodifiableMap(new LinkedHashMap<>(labelTags));
    Objects.requireNonNull(pollInterval, "pollInterval");
    credentials = List.copyOf(credentials);
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  /** The tag keys of every target this provider finds: {@link #POD_TAGS}, then the label tags. */
  public List<String> tagKeys() {
    List<String> keys = new ArrayList<>(POD_TAGS);
    keys.addAll(labelTags.keySet());
    return List.copyOf(keys);
  }

  /** Whether a pod of this namespace with these labels passes the include and exclude filters. */
  public boolean watches(String namespace, Map<String, String> labels) {
    boolean included =
        include.isEmpty() || include.stream().anyMatch(m -> m.matches(namespace, labels));
    return included && exclude.stream().noneMatch(m -> m.matches(namespace, labels));
  }
}
