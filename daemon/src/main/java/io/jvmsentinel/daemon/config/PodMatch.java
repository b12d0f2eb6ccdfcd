package io.jvmsentinel.daemon.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One filter entry of Kubernetes discovery: a pod matches when its namespace matches {@code
 * namespace} (if given) and each listed label is set and matches its pattern. Patterns match the
 * whole value ({@code api} does not match {@code api-gateway}); at least one key is given.
 *
 * @param namespace a pattern for the pod's namespace
 * @param labels label name to a pattern for its value
 */
public record PodMatch(Optional<Pattern> namespace, Map<String, Pattern> labels) {
  public PodMatch {
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
  }

  public boolean matches(String podNamespace, Map<String, String> podLabels) {
    if (namespace.isPresent() && !namespace.get().matcher(podNamespace).matches()) {
      return false;
    }
    return labels.entrySet().stream()
        .allMatch(
            wanted -> {
              String value = podLabels.get(wanted.getKey());
              return value != null && wanted.getValue().matcher(value).matches();
            });
  }

  // Pattern has no equals of its own; the same text is the same filter (see PatternText).
  @Override
  public boolean equals(Object other) {
    return other instanceof PodMatch that
        && PatternText.of(namespace).equals(PatternText.of(that.namespace))
        && PatternText.of(labels).equals(PatternText.of(that.labels));
  }

  @Override
  public int hashCode() {
    return Objects.hash(PatternText.of(namespace), PatternText.of(labels));
  }
}
