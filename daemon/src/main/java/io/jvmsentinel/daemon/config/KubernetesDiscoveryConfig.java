package io.jvmsentinel.daemon.config;

import io.jvmsentinel.daemon.identity.PodIdentity;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * @param secretRefresh how often a credentials Secret that was read is read again: a rotated
 *     password or client certificate reaches the targets within it
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
    Duration requestTimeout,
    Duration secretRefresh) {
  public static final String DEFAULT_ANNOTATION_PREFIX = "jvm-sentinel.io/";
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_SECRET_REFRESH = Duration.ofSeconds(60);
  // One get per Secret and interval: more often would only load the API server.
  public static final Duration MIN_SECRET_REFRESH = Duration.ofSeconds(1);

  /** The tags every discovered target carries, before the label tags, in this order. */
  public static final List<String> POD_TAGS = PodIdentity.TAG_KEYS;

  public KubernetesDiscoveryConfig {
    namespaces = List.copyOf(namespaces);
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    labelTags = Collections.unmodifiableMap(new LinkedHashMap<>(labelTags));
    credentials = List.copyOf(credentials);
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

  private static final String SECTION = "discovery.kubernetes";
  // Kubernetes' own rules: a namespace is a DNS label; node and Secret names are DNS subdomains,
  // and so is the prefix of an annotation or label key ([prefix/]name).
  private static final String DNS_SUBDOMAIN = "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?";
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern LABEL_KEY =
      Pattern.compile("(" + DNS_SUBDOMAIN + "/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern ANNOTATION_PREFIX = Pattern.compile(DNS_SUBDOMAIN + "/");
  private static final Pattern NODE_OR_SECRET_NAME = Pattern.compile(DNS_SUBDOMAIN);
  private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  /** One entry of {@code include} or {@code exclude} as read. */
  private record Written(ConfigNode node, Pattern namespace, Map<String, Pattern> labels) {
    static Written read(ConfigNode entry) {
      ConfigNode s = entry.section();
      return new Written(s, s.pattern("namespace"), s.mapOf("labels", ConfigNode::pattern));
    }
  }

  /**
   * The {@code discovery.kubernetes} section with its defaults.
   *
   * @param wanted {@code --discover kubernetes}: on, with the section's settings or its defaults
   * @param commonTags the top-level {@code tags}, which label tags must not repeat
   */
  static Optional<KubernetesDiscoveryConfig> read(
      ConfigNode s, boolean wanted, Map<String, String> commonTags) {
    boolean enabled = s.bool("enabled", true);
    String apiServer = s.text("apiServer");
    List<String> namespaces = s.listOf("namespaces", ConfigNode::text);
    String node = s.text("node");
    String annotationPrefix = s.text("annotationPrefix");
    List<Written> include = s.listOf("include", Written::read);
    List<Written> exclude = s.listOf("exclude", Written::read);
    ConfigNode labelTags = s.child("labelTags");
    Duration pollInterval = s.duration("pollInterval", TargetConfig.DEFAULT_POLL_INTERVAL);
    String username = s.text("username");
    String passwordEnv = s.text("passwordEnv");
    String passwordFile = s.text("passwordFile");
    Duration connectTimeout = s.duration("connectTimeout", DEFAULT_CONNECT_TIMEOUT);
    Duration requestTimeout = s.duration("requestTimeout", DEFAULT_REQUEST_TIMEOUT);
    Duration secretRefresh = s.duration("secretRefresh", DEFAULT_SECRET_REFRESH);
    List<Credentials> credentials = s.listOf("credentials", Credentials::read);
    if (!wanted && (!s.present() || !enabled)) {
      return Optional.empty();
    }
    List<String> watched = namespaces(s, namespaces);
    List<PodCredentials> allowList =
        credentials(s, credentials, watched, username, passwordEnv, passwordFile);
    return Optional.of(
        new KubernetesDiscoveryConfig(
            apiServer(s, apiServer),
            watched,
            node(s, node),
            annotationPrefix == null
                    || s.check(
                        ANNOTATION_PREFIX.matcher(annotationPrefix).matches(),
                        "'%s.annotationPrefix' (\"%s\") must be a DNS name followed by '/', like %s",
                        SECTION,
                        annotationPrefix,
                        DEFAULT_ANNOTATION_PREFIX)
                ? Objects.requireNonNullElse(annotationPrefix, DEFAULT_ANNOTATION_PREFIX)
                : DEFAULT_ANNOTATION_PREFIX,
            matches(include),
            matches(exclude),
            labelTags(labelTags, commonTags),
            s.atLeastGot("pollInterval", pollInterval, TargetConfig.MIN_POLL_INTERVAL)
                ? pollInterval
                : TargetConfig.DEFAULT_POLL_INTERVAL,
            allowList,
            s.positive("connectTimeout", connectTimeout) ? connectTimeout : DEFAULT_CONNECT_TIMEOUT,
            s.positive("requestTimeout", requestTimeout) ? requestTimeout : DEFAULT_REQUEST_TIMEOUT,
            s.atLeastGot("secretRefresh", secretRefresh, MIN_SECRET_REFRESH)
                ? secretRefresh
                : DEFAULT_SECRET_REFRESH));
  }

  /** One entry of {@code credentials} as read. */
  private record Credentials(
      ConfigNode node,
      List<String> namespaces,
      Map<String, Pattern> labels,
      String secret,
      String username,
      ConfigNode.SecretRef password,
      List<String> pins,
      Boolean tlsRegistry) {
    static Credentials read(ConfigNode entry) {
      ConfigNode s = entry.section();
      return new Credentials(
          s,
          s.listOf("namespaces", ConfigNode::text),
          s.mapOf("labels", ConfigNode::pattern),
          s.text("secret"),
          s.text("username"),
          s.secretRef("password"),
          s.listOf("pinnedSha256", ConfigNode::text),
          s.bool("tlsRegistry"));
    }

    /** The entry, or empty after its problems. */
    Optional<PodCredentials> check(List<String> watched) {
      String path = node.path;
      int before = node.reading.problems.count();
      List<String> allowed = new ArrayList<>();
      if (namespaces == null || namespaces.isEmpty()) {
        node.check(
            node.unreadable("namespaces"),
            "'%s.namespaces' is required: the namespaces whose pods may receive these credentials"
                + " (exact names)",
            path);
      }
      for (int i = 0; namespaces != null && i < namespaces.size(); i++) {
        String namespace = namespaces.get(i);
        String key = path + ".namespaces[" + i + "]";
        if (namespaceValid(node, key, namespace)
            && node.check(
                watched.isEmpty() || watched.contains(namespace),
                "'%s': namespace '%s' is not watched ('%s.namespaces'); add it there or remove it"
                    + " here",
                key,
                namespace,
                SECTION)
            && !allowed.contains(namespace)) {
          allowed.add(namespace);
        }
      }
      Map<String, Pattern> labelPatterns = labels == null ? Map.of() : labels;
      labelsValid(node, labelPatterns);
      Optional<Secret> secretValue = Optional.empty();
      if (secret != null && (username != null || password.written())) {
        node.check(
            false,
            "'%s': set either 'secret' (a Secret per namespace) or 'username' with its password,"
                + " not both",
            path);
      } else if (secret != null) {
        node.check(
            NODE_OR_SECRET_NAME.matcher(secret).matches(),
            "'%s.secret' (\"%s\") is not a Kubernetes Secret name",
            path,
            secret);
      } else if (username != null) {
        secretValue = password.read();
      } else {
        node.check(
            node.unreadable("username"),
            "'%s' needs 'secret' (the name of a Secret in each namespace, with keys username,"
                + " password and optionally ca.crt) or 'username' with 'passwordEnv' or"
                + " 'passwordFile'",
            path);
      }
      List<String> pinned = new ArrayList<>();
      for (int i = 0; pins != null && i < pins.size(); i++) {
        Optional<String> pin =
            pins.get(i) == null ? Optional.empty() : TlsTrust.Pinned.normalise(pins.get(i));
        if (node.check(
            pin.isPresent(),
            "'%s.pinnedSha256[%d]' is not a SHA-256 fingerprint; give 64 hex digits, with or"
                + " without colons (openssl x509 -noout -fingerprint -sha256 -in server.crt)",
            path,
            i)) {
          pinned.add(pin.get());
        }
      }
      if (node.reading.problems.count() > before) {
        return Optional.empty();
      }
      return Optional.of(
          new PodCredentials(
              allowed,
              labelPatterns,
              Optional.ofNullable(secret),
              Optional.ofNullable(username),
              secretValue,
              pinned,
              tlsRegistry == null || tlsRegistry));
    }
  }

  /** {@code credentials}: the allow-list of who gets which password. */
  private static List<PodCredentials> credentials(
      ConfigNode s,
      List<Credentials> entries,
      List<String> watched,
      String username,
      String passwordEnv,
      String passwordFile) {
    s.check(
        username == null && passwordEnv == null && passwordFile == null,
        "'%s.username' and its password would go to every pod that annotates itself; move them"
            + " into '%s.credentials' with the namespaces allowed to receive them, e.g."
            + " credentials: [{namespaces: [shop], username: monitor, passwordFile: ...}], or name"
            + " a Secret per namespace: [{namespaces: [shop], secret: jvm-sentinel-jmx}]",
        SECTION,
        SECTION);
    List<PodCredentials> rules = new ArrayList<>();
    for (Credentials entry : entries == null ? List.<Credentials>of() : entries) {
      if (!entry.node().present() && !entry.node().unreadable()) {
        entry
            .node()
            .check(
                false,
                "'%s' is empty; give 'namespaces' and 'secret' or 'username'",
                entry.node().path);
      } else if (!entry.node().unreadable()) {
        entry.check(watched).ifPresent(rules::add);
      }
    }
    return rules;
  }

  /** Whether each label name is one and has a pattern; reports the first problem of each. */
  private static boolean labelsValid(ConfigNode node, Map<String, Pattern> labels) {
    boolean valid = true;
    for (Map.Entry<String, Pattern> label : labels.entrySet()) {
      valid &=
          node.check(
                  LABEL_KEY.matcher(label.getKey()).matches(),
                  "'%s.labels': '%s' is not a Kubernetes label name",
                  node.path,
                  label.getKey())
              && node.check(
                  label.getValue() != null,
                  "'%s.labels.%s' has no pattern",
                  node.path,
                  label.getKey());
    }
    return valid;
  }

  private static boolean namespaceValid(ConfigNode node, String path, String namespace) {
    return node.check(
        namespace != null && NAMESPACE.matcher(namespace).matches(),
        "'%s' (\"%s\") is not a namespace name; use [a-z0-9-]+",
        path,
        namespace);
  }

  private static Optional<String> apiServer(ConfigNode s, String url) {
    boolean ok = url == null;
    try {
      URI uri = new URI(String.valueOf(url));
      ok |=
          ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
              && uri.getHost() != null;
    } catch (URISyntaxException e) {
      // reported below
    }
    s.check(
        ok,
        "'%s.apiServer' must be an http(s) URL such as https://kubernetes.default.svc, got \"%s\";"
            + " leave it out to use the pod's service account or the kubeconfig",
        SECTION,
        url);
    return ok ? Optional.ofNullable(url) : Optional.empty();
  }

  private static List<String> namespaces(ConfigNode s, List<String> read) {
    List<String> namespaces = new ArrayList<>();
    if (read == null) {
      return namespaces;
    }
    s.check(
        !read.isEmpty() || s.unreadable("namespaces"),
        "'%s.namespaces' is empty; leave it out to watch every namespace",
        SECTION);
    for (int i = 0; i < read.size(); i++) {
      String namespace = read.get(i);
      String path = SECTION + ".namespaces[" + i + "]";
      if (!s.unreadable("namespaces[" + i + "]")
          && namespaceValid(s, path, namespace)
          && s.check(
              !namespaces.contains(namespace),
              "'%s': namespace '%s' is listed twice",
              path,
              namespace)) {
        namespaces.add(namespace);
      }
    }
    return namespaces;
  }

  /** A node name, or {@code ${VARIABLE}} set from the downward API ({@code spec.nodeName}). */
  private static Optional<String> node(ConfigNode s, String written) {
    if (written == null) {
      return Optional.empty();
    }
    String node = written;
    Matcher reference = ENV_REFERENCE.matcher(written);
    if (reference.matches()) {
      node = s.reading.env.apply(reference.group(1));
      if (!s.check(
          node != null && !node.isEmpty(),
          "'%s.node': environment variable '%s' is %s; set it from the downward API"
              + " (valueFrom.fieldRef.fieldPath: spec.nodeName)",
          SECTION,
          reference.group(1),
          node == null ? "not set" : "empty")) {
        return Optional.empty();
      }
    }
    return Optional.of(node)
        .filter(
            name ->
                s.check(
                    NODE_OR_SECRET_NAME.matcher(name).matches(),
                    "'%s.node' (\"%s\") is not a node name; give a name or ${VARIABLE} holding one",
                    SECTION,
                    name));
  }

  private static List<PodMatch> matches(List<Written> entries) {
    List<PodMatch> matches = new ArrayList<>();
    for (Written entry : entries == null ? List.<Written>of() : entries) {
      ConfigNode node = entry.node();
      Map<String, Pattern> labels = entry.labels() == null ? Map.of() : entry.labels();
      if (node.unreadable() // a bad pattern was reported already
          || !node.check(
              entry.namespace() != null || !labels.isEmpty(),
              "'%s' needs 'namespace' or 'labels'",
              node.path)) {
        continue;
      }
      if (labelsValid(node, labels)) {
        matches.add(new PodMatch(Optional.ofNullable(entry.namespace()), labels));
      }
    }
    return matches;
  }

  /** {@code [app, team]} (tag = label) or {@code {app: app.kubernetes.io/name}} (tag: label). */
  private static Map<String, String> labelTags(ConfigNode raw, Map<String, String> commonTags) {
    Map<String, String> tags = new LinkedHashMap<>();
    String key = "'" + SECTION + ".labelTags'";
    if (raw.isList()) {
      for (ConfigNode label : raw.items()) {
        String name = label.isText() ? label.text() : null;
        if (raw.check(name != null, "%s: expected label names, got %s", key, label.json())
            && raw.check(
                TagRules.isLabelName(name),
                "%s: label '%s' is not a valid tag key; map it to one: {my_tag: %s}",
                key,
                name,
                name)) {
          tags.put(name, name);
        }
      }
    } else if (raw.isMap()) {
      raw.fields()
          .forEach(
              (tag, label) -> {
                if (raw.check(
                    label.isText(),
                    "%s.%s: expected a label name, got %s",
                    key,
                    tag,
                    label.json())) {
                  tags.put(tag, label.text());
                }
              });
    } else {
      raw.check(
          !raw.present(),
          "%s: expected a list of label names or a map of tag key to label name, got %s",
          key,
          raw.json());
      return tags;
    }
    TagRules.check(tags, key, List.of(), problem -> raw.check(false, problem));
    tags.forEach(
        (tag, label) -> {
          raw.check(
              !POD_TAGS.contains(tag),
              "%s: tag key '%s' is set by discovery itself (from the pod)",
              key,
              tag);
          raw.check(
              !commonTags.containsKey(tag),
              "%s: tag key '%s' is also a common tag (top-level 'tags'); set it once",
              key,
              tag);
          raw.check(
              LABEL_KEY.matcher(label).matches(),
              "%s: '%s' is not a Kubernetes label name",
              key,
              label);
        });
    return tags;
  }
}
