package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks the {@code discovery.kubernetes} section and applies its defaults. */
final class KubernetesDiscoveryValidator {
  private static final String SECTION = "discovery.kubernetes";
  // Kubernetes' own rules: a namespace is a DNS label; a label key is [prefix/]name.
  static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  static final Pattern LABEL_KEY =
      Pattern.compile(
          "([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern ANNOTATION_PREFIX =
      Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/");
  private static final Pattern NODE = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
  private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private static final ConfigDocument.KubernetesDiscovery EMPTY =
      new ConfigDocument.KubernetesDiscovery(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

  private final Problems problems;
  private final Function<String, String> env;
  private final PasswordReader passwords;
  private final Map<String, String> commonTags;
  private final Path baseDir;

  KubernetesDiscoveryValidator(
      Problems problems,
      Function<String, String> env,
      PasswordReader passwords,
      Map<String, String> commonTags,
      Path baseDir) {
    this.problems = problems;
    this.env = env;
    this.passwords = passwords;
    this.commonTags = commonTags;
    this.baseDir = baseDir;
  }

  /**
   * @param wanted {@code --discover kubernetes}: on, with the section's settings or its defaults
   */
  Optional<KubernetesDiscoveryConfig> validate(ConfigDocument.Discovery raw, boolean wanted) {
    ConfigDocument.KubernetesDiscovery k8s = raw == null ? null : raw.kubernetes();
    if (k8s == null) {
      if (!wanted) {
        return Optional.empty();
      }
      k8s = EMPTY;
    }
    if (Boolean.FALSE.equals(k8s.enabled()) && !wanted) {
      return Optional.empty();
    }
    List<String> namespaces = namespaces(k8s.namespaces());
    List<PodCredentials> credentials =
        new KubernetesCredentialsValidator(problems, new SecretKeys(problems, passwords, baseDir))
            .validate(
                k8s.credentials(),
                namespaces,
                k8s.username(),
                k8s.passwordEnv(),
                k8s.passwordFile());
    return Optional.of(
        new KubernetesDiscoveryConfig(
            apiServer(k8s.apiServer()),
            namespaces,
            node(k8s.node()),
            annotationPrefix(k8s.annotationPrefix()),
            matches("include", k8s.include()),
            matches("exclude", k8s.exclude()),
            labelTags(k8s.labelTags()),
            pollInterval(k8s.pollInterval()),
            credentials,
            positive(
                "connectTimeout",
                k8s.connectTimeout(),
                KubernetesDiscoveryConfig.DEFAULT_CONNECT_TIMEOUT),
            positive(
                "requestTimeout",
                k8s.requestTimeout(),
                KubernetesDiscoveryConfig.DEFAULT_REQUEST_TIMEOUT)));
  }

  private Optional<String> apiServer(String url) {
    if (url == null) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(url);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return Optional.of(url);
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    problems.add(
        "'"
            + SECTION
            + ".apiServer' must be an http(s) URL such as https://kubernetes.default.svc, got \""
            + url
            + "\"; leave it out to use the pod's service account or the kubeconfig");
    return Optional.empty();
  }

  private List<String> namespaces(List<String> raw) {
    if (raw == null) {
      return List.of();
    }
    if (raw.isEmpty() && !problems.unreadable(SECTION + ".namespaces")) {
      problems.add("'" + SECTION + ".namespaces' is empty; leave it out to watch every namespace");
    }
    List<String> namespaces = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      String namespace = raw.get(i);
      String path = SECTION + ".namespaces[" + i + "]";
      if (problems.unreadable(path)) {
        continue;
      }
      if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
        problems.add(
            "'" + path + "' (\"" + namespace + "\") is not a namespace name; use [a-z0-9-]+");
      } else if (namespaces.contains(namespace)) {
        problems.add("'" + path + "': namespace '" + namespace + "' is listed twice");
      } else {
        namespaces.add(namespace);
      }
    }
    return namespaces;
  }

  /** A node name, or {@code ${VARIABLE}} set from the downward API ({@code spec.nodeName}). */
  private Optional<String> node(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String key = "'" + SECTION + ".node'";
    String node = raw;
    Matcher reference = ENV_REFERENCE.matcher(raw);
    if (reference.matches()) {
      node = env.apply(reference.group(1));
      if (node == null || node.isEmpty()) {
        problems.add(
            key
                + ": environment variable '"
                + reference.group(1)
                + "' is "
                + (node == null ? "not set" : "empty")
                + "; set it from the downward API (valueFrom.fieldRef.fieldPath: spec.nodeName)");
        return Optional.empty();
      }
    }
    if (!NODE.matcher(node).matches()) {
      problems.add(
          key + " (\"" + node + "\") is not a node name; give a name or ${VARIABLE} holding one");
      return Optional.empty();
    }
    return Optional.of(node);
  }

  private String annotationPrefix(String raw) {
    if (raw == null) {
      return KubernetesDiscoveryConfig.DEFAULT_ANNOTATION_PREFIX;
    }
    if (!ANNOTATION_PREFIX.matcher(raw).matches()) {
      problems.add(
          "'"
              + SECTION
              + ".annotationPrefix' (\""
              + raw
              + "\") must be a DNS name followed by '/', like "
              + KubernetesDiscoveryConfig.DEFAULT_ANNOTATION_PREFIX);
      return KubernetesDiscoveryConfig.DEFAULT_ANNOTATION_PREFIX;
    }
    return raw;
  }

  private List<PodMatch> matches(String key, List<ConfigDocument.PodMatch> raw) {
    List<PodMatch> matches = new ArrayList<>();
    if (raw == null) {
      return matches;
    }
    for (int i = 0; i < raw.size(); i++) {
      ConfigDocument.PodMatch entry = raw.get(i);
      String path = SECTION + "." + key + "[" + i + "]";
      if (problems.unreadable(path)) {
        continue; // a bad pattern was reported already
      }
      if (entry == null
          || (entry.namespace() == null && (entry.labels() == null || entry.labels().isEmpty()))) {
        problems.add("'" + path + "' needs 'namespace' or 'labels'");
        continue;
      }
      Map<String, Pattern> labels = entry.labels() == null ? Map.of() : entry.labels();
      boolean valid = true;
      for (Map.Entry<String, Pattern> label : labels.entrySet()) {
        if (!LABEL_KEY.matcher(label.getKey()).matches()) {
          problems.add(
              "'" + path + ".labels': '" + label.getKey() + "' is not a Kubernetes label name");
          valid = false;
        } else if (label.getValue() == null) {
          problems.add("'" + path + ".labels." + label.getKey() + "' has no pattern");
          valid = false;
        }
      }
      if (valid) {
        matches.add(new PodMatch(Optional.ofNullable(entry.namespace()), labels));
      }
    }
    return matches;
  }

  /** {@code [app, team]} (tag = label) or {@code {app: app.kubernetes.io/name}} (tag: label). */
  private Map<String, String> labelTags(JsonNode raw) {
    Map<String, String> tags = new LinkedHashMap<>();
    String key = "'" + SECTION + ".labelTags'";
    if (raw == null || raw.isNull()) {
      return tags;
    }
    if (raw.isArray()) {
      for (JsonNode label : raw) {
        if (!label.isTextual()) {
          problems.add(key + ": expected label names, got " + label);
        } else if (!TagRules.isLabelName(label.asText())) {
          problems.add(
              key
                  + ": label '"
                  + label.asText()
                  + "' is not a valid tag key; map it to one: {my_tag: "
                  + label.asText()
                  + "}");
        } else {
          tags.put(label.asText(), label.asText());
        }
      }
    } else if (raw.isObject()) {
      raw.properties()
          .forEach(
              entry -> {
                if (!entry.getValue().isTextual()) {
                  problems.add(
                      key
                          + "."
                          + entry.getKey()
                          + ": expected a label name, got "
                          + entry.getValue());
                } else {
                  tags.put(entry.getKey(), entry.getValue().asText());
                }
              });
    } else {
      problems.add(
          key + ": expected a list of label names or a map of tag key to label name, got " + raw);
      return tags;
    }
    TagRules.check(tags, key, List.of(), problems::add);
    tags.forEach(
        (tag, label) -> {
          if (KubernetesDiscoveryConfig.POD_TAGS.contains(tag)) {
            problems.add(key + ": tag key '" + tag + "' is set by discovery itself (from the pod)");
          }
          if (commonTags.containsKey(tag)) {
            problems.add(
                key
                    + ": tag key '"
                    + tag
                    + "' is also a common tag (top-level 'tags'); set it once");
          }
          if (!LABEL_KEY.matcher(label).matches()) {
            problems.add(key + ": '" + label + "' is not a Kubernetes label name");
          }
        });
    return tags;
  }

  private Duration pollInterval(Duration value) {
    if (value == null) {
      return TargetConfig.DEFAULT_POLL_INTERVAL;
    }
    if (value.compareTo(TargetConfig.MIN_POLL_INTERVAL) < 0) {
      problems.add(
          "'"
              + SECTION
              + ".pollInterval' must be at least "
              + Durations.format(TargetConfig.MIN_POLL_INTERVAL)
              + ", got "
              + Durations.format(value));
      return TargetConfig.DEFAULT_POLL_INTERVAL;
    }
    return value;
  }

  private Duration positive(String key, Duration value, Duration fallback) {
    if (value == null) {
      return fallback;
    }
    if (value.isZero()) {
      problems.add("'" + SECTION + "." + key + "' must be greater than 0s");
      return fallback;
    }
    return value;
  }
}
