package io.jvmsentinel.daemon.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Checks {@code discovery.kubernetes.credentials}: the allow-list of who gets which password. */
final class KubernetesCredentialsValidator {
  private static final String SECTION = "discovery.kubernetes";
  private static final Pattern NAMESPACE = KubernetesDiscoveryValidator.NAMESPACE;
  private static final Pattern SECRET_NAME =
      Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
  private static final Pattern LABEL_KEY = KubernetesDiscoveryValidator.LABEL_KEY;

  private final Problems problems;
  private final SecretKeys secrets;

  KubernetesCredentialsValidator(Problems problems, SecretKeys secrets) {
    this.problems = problems;
    this.secrets = secrets;
  }

  /**
   * @param watched {@code discovery.kubernetes.namespaces}; empty: every namespace
   * @param legacyUsername the old section-wide {@code username} (one password for every pod)
   */
  List<PodCredentials> validate(
      List<ConfigDocument.PodCredentials> raw,
      List<String> watched,
      String legacyUsername,
      String legacyPasswordEnv,
      String legacyPasswordFile) {
    if (legacyUsername != null || legacyPasswordEnv != null || legacyPasswordFile != null) {
      problems.add(
          "'"
              + SECTION
              + ".username' and its password would go to every pod that annotates itself; move"
              + " them into '"
              + SECTION
              + ".credentials' with the namespaces allowed to receive them, e.g. credentials:"
              + " [{namespaces: [shop], username: monitor, passwordFile: ...}], or name a Secret"
              + " per namespace: [{namespaces: [shop], secret: jvm-sentinel-jmx}]");
    }
    List<PodCredentials> rules = new ArrayList<>();
    if (raw == null) {
      return rules;
    }
    for (int i = 0; i < raw.size(); i++) {
      String path = SECTION + ".credentials[" + i + "]";
      if (problems.unreadable(path)) {
        continue;
      }
      ConfigDocument.PodCredentials entry = raw.get(i);
      if (entry == null) {
        problems.add("'" + path + "' is empty; give 'namespaces' and 'secret' or 'username'");
        continue;
      }
      rule(path, entry, watched).ifPresent(rules::add);
    }
    return rules;
  }

  private Optional<PodCredentials> rule(
      String path, ConfigDocument.PodCredentials entry, List<String> watched) {
    int before = problems.count();
    List<String> namespaces = namespaces(path, entry.namespaces(), watched);
    Map<String, Pattern> labels = entry.labels() == null ? Map.of() : entry.labels();
    labels.forEach(
        (key, pattern) -> {
          if (!LABEL_KEY.matcher(key).matches()) {
            problems.add("'" + path + ".labels': '" + key + "' is not a Kubernetes label name");
          } else if (pattern == null) {
            problems.add("'" + path + ".labels." + key + "' has no pattern");
          }
        });
    Optional<String> secret = Optional.ofNullable(entry.secret());
    Optional<String> username = Optional.ofNullable(entry.username());
    Optional<Secret> password = Optional.empty();
    boolean passwordGiven = entry.passwordEnv() != null || entry.passwordFile() != null;
    if (secret.isPresent() && (username.isPresent() || passwordGiven)) {
      problems.add(
          "'"
              + path
              + "': set either 'secret' (a Secret per namespace) or 'username' with its password,"
              + " not both");
    } else if (secret.isPresent()) {
      if (!SECRET_NAME.matcher(secret.get()).matches()) {
        problems.add(
            "'" + path + ".secret' (\"" + secret.get() + "\") is not a Kubernetes Secret name");
      }
    } else if (username.isPresent()) {
      password = secrets.read(path, "password", entry.passwordEnv(), entry.passwordFile());
    } else if (!problems.unreadable(path + ".username")) {
      problems.add(
          "'"
              + path
              + "' needs 'secret' (the name of a Secret in each namespace, with keys username,"
              + " password and optionally ca.crt) or 'username' with 'passwordEnv' or"
              + " 'passwordFile'");
    }
    List<String> pins = new ArrayList<>();
    List<String> rawPins = entry.pinnedSha256() == null ? List.of() : entry.pinnedSha256();
    for (int i = 0; i < rawPins.size(); i++) {
      String pin = rawPins.get(i);
      Optional<String> normalised = pin == null ? Optional.empty() : TlsTrust.Pinned.normalise(pin);
      if (normalised.isEmpty()) {
        problems.add(
            "'"
                + path
                + ".pinnedSha256["
                + i
                + "]' is not a SHA-256 fingerprint; give 64 hex digits, with or without colons"
                + " (openssl x509 -noout -fingerprint -sha256 -in server.crt)");
      } else {
        pins.add(normalised.get());
      }
    }
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Optional.of(
        new PodCredentials(
            namespaces,
            labels,
            secret,
            username,
            password,
            pins,
            entry.tlsRegistry() == null || entry.tlsRegistry()));
  }

  private List<String> namespaces(String path, List<String> raw, List<String> watched) {
    List<String> namespaces = new ArrayList<>();
    if (raw == null || raw.isEmpty()) {
      if (!problems.unreadable(path + ".namespaces")) {
        problems.add(
            "'"
                + path
                + ".namespaces' is required: the namespaces whose pods may receive these"
                + " credentials (exact names)");
      }
      return namespaces;
    }
    for (int i = 0; i < raw.size(); i++) {
      String namespace = raw.get(i);
      String key = path + ".namespaces[" + i + "]";
      if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
        problems.add(
            "'" + key + "' (\"" + namespace + "\") is not a namespace name; use [a-z0-9-]+");
      } else if (!watched.isEmpty() && !watched.contains(namespace)) {
        problems.add(
            "'"
                + key
                + "': namespace '"
                + namespace
                + "' is not watched ('"
                + SECTION
                + ".namespaces'); add it there or remove it here");
      } else if (!namespaces.contains(namespace)) {
        namespaces.add(namespace);
      }
    }
    return namespaces;
  }
}
