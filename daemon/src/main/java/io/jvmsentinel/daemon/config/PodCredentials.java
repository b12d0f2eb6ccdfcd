package io.jvmsentinel.daemon.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of {@code discovery.kubernetes.credentials}: the JMX credentials that discovery may
 * send to the pods of these namespaces (with these labels), and nowhere else. A pod that annotates
 * itself can be anyone's, so a password goes only where an operator listed it.
 *
 * @param namespaces the exact namespaces whose pods may receive these credentials
 * @param labels label name to a pattern its value must match (whole value); empty: any pod
 * @param secret a Secret of this name in the pod's own namespace holds {@code username}, {@code
 *     password} and optionally {@code ca.crt} (then TLS, trusting that CA only) and {@code tls.crt}
 *     with {@code tls.key} (the client certificate the daemon presents; TLS)
 * @param username the JMX user, when the credentials are given here instead of in a Secret
 * @param password its password, already read from its environment variable or file
 * @param pinnedSha256 SHA-256 fingerprints of the only server certificates to send credentials to
 *     (normalised: lower-case hex); not empty means TLS
 * @param tlsRegistry whether the RMI registry uses TLS too ({@code
 *     com.sun.management.jmxremote.registry.ssl=true}) when TLS is on
 */
public record PodCredentials(
    List<String> namespaces,
    Map<String, Pattern> labels,
    Optional<String> secret,
    Optional<String> username,
    Optional<Secret> password,
    List<String> pinnedSha256,
    boolean tlsRegistry) {
  /** The keys read from a credentials Secret. */
  public static final String USERNAME_KEY = "username";

  public static final String PASSWORD_KEY = "password";
  public static final String CA_KEY = "ca.crt";

  /** The keys of a {@code kubernetes.io/tls} Secret: the daemon's client certificate and key. */
  public static final String CERTIFICATE_KEY = "tls.crt";

  public static final String PRIVATE_KEY_KEY = "tls.key";

  public PodCredentials {
    namespaces = List.copyOf(namespaces);
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    pinnedSha256 = List.copyOf(pinnedSha256);
  }

  /** Whether a pod of this namespace with these labels may receive these credentials. */
  public boolean allows(String podNamespace, Map<String, String> podLabels) {
    return namespaces.contains(podNamespace)
        && new PodMatch(Optional.empty(), labels).matches(podNamespace, podLabels);
  }

  // Pattern has no equals of its own; the same text is the same filter (see PatternText).
  @Override
  public boolean equals(Object other) {
    return other instanceof PodCredentials that
        && namespaces.equals(that.namespaces)
        && PatternText.of(labels).equals(PatternText.of(that.labels))
        && secret.equals(that.secret)
        && username.equals(that.username)
        && password.equals(that.password)
        && pinnedSha256.equals(that.pinnedSha256)
        && tlsRegistry == that.tlsRegistry;
  }

  @Override
  public int hashCode() {
    return Objects.hash(namespaces, PatternText.of(labels), secret, username, pinnedSha256);
  }
}
