package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.util.List;

/**
 * The default name of a fixed target in a pod: the pod's name. A sidecar's configuration is the
 * same for every replica, so a name written there ({@code orders}) is every replica's; left out,
 * each replica's target is called after its own pod, and {@code sum by (target)} no longer adds
 * replicas up.
 */
final class PodNames {
  private PodNames() {}

  /** The sources, those without a name named after the pod when it is known. */
  static List<TargetSource> named(List<TargetSource> sources, PodIdentity pod) {
    if (!pod.inPod()) {
      return sources;
    }
    return sources.stream()
        .map(
            source -> source.name() != null || source.empty() ? source : source.withName(pod.pod()))
        .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
  }
}
