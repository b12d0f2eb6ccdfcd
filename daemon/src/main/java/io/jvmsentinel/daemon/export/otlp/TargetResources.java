package io.jvmsentinel.daemon.export.otlp;

import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.identity.PodIdentity;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which OTLP resource a meter belongs to. A watched JVM is a service of its own, not part of the
 * daemon: its meters (those with a {@code target} tag) go out under the app's resource, {@code
 * service.name} from the target's {@code service} or {@code app} tag, else the configured one
 * ({@code otlp.resourceAttributes}, {@code OTEL_SERVICE_NAME}: a sidecar's app), else the target's
 * name, and the Kubernetes resource attributes of its pod identity ({@code k8s.namespace.name},
 * {@code k8s.pod.name}, {@code k8s.container.name}, {@code k8s.node.name}). The daemon's own meters
 * keep the daemon's resource ({@code service.name} jvm-sentinel).
 */
final class TargetResources {
  static final String TARGET_TAG = "target";
  static final String SERVICE_NAME = "service.name";

  /** Tags a service's name is read from, first found wins; else the target's name. */
  static final List<String> SERVICE_NAME_TAGS = List.of("service", "app");

  /**
   * The pod identity tags (and the pod UID a node agent reads from a cgroup) and the
   * semantic-convention resource attributes they become.
   */
  static final Map<String, String> K8S_ATTRIBUTES =
      Map.of(
          PodIdentity.NAMESPACE_TAG, "k8s.namespace.name",
          PodIdentity.POD_TAG, "k8s.pod.name",
          PodIdentity.CONTAINER_TAG, "k8s.container.name",
          PodIdentity.NODE_TAG, "k8s.node.name",
          LocalDiscoveryConfig.POD_UID_TAG, "k8s.pod.uid");

  private TargetResources() {}

  /** The target a meter is about; empty for the daemon's own meters. */
  static Optional<String> targetOf(Meter.Id id) {
    return Optional.ofNullable(id.getTag(TARGET_TAG)).filter(target -> !target.isEmpty());
  }

  /** Which resource a meter is in: its target's and pod's; "" for the daemon's own. */
  static String key(Meter.Id id) {
    return targetOf(id).map(target -> target + "|" + of(id)).orElse("");
  }

  /** The resource attributes of the target whose meter this is (service.name only from a tag). */
  static Map<String, String> of(Meter.Id id) {
    Map<String, String> attributes = new LinkedHashMap<>();
    SERVICE_NAME_TAGS.stream()
        .map(id::getTag)
        .filter(value -> value != null && !value.isEmpty())
        .findFirst()
        .ifPresent(service -> attributes.put(SERVICE_NAME, service));
    K8S_ATTRIBUTES.forEach(
        (tag, attribute) -> {
          String value = id.getTag(tag);
          if (value != null && !value.isEmpty()) {
            attributes.put(attribute, value);
          }
        });
    return attributes;
  }

  /** The meter's data point attributes: without the pod identity, which its resource carries. */
  static Meter.Id withoutResourceTags(Meter.Id id) {
    List<Tag> kept =
        id.getTags().stream().filter(tag -> !K8S_ATTRIBUTES.containsKey(tag.getKey())).toList();
    return kept.size() == id.getTags().size() ? id : id.replaceTags(kept);
  }
}
