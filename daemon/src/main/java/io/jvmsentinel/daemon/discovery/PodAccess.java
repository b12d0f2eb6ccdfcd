package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.Pod;
import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.PodCredentials;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.config.TargetTlsConfig;
import io.jvmsentinel.daemon.config.TlsTrust;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a discovered pod may receive. A pod that annotates itself can be anyone's, so credentials go
 * only to pods that {@code discovery.kubernetes.credentials} allows (the first entry whose
 * namespaces and labels match), from that entry or its namespace's own Secret, and over TLS that
 * checks the pinned CA or fingerprint when the entry or Secret gives one (and presents the Secret's
 * client certificate, which needs such a pin: never the JDK's default CAs). Every other pod:
 *
 * <ul>
 *   <li>with no credentials configured at all, it is watched without credentials (nothing to leak);
 *   <li>annotated {@code <prefix>jmx-auth: none}, it is watched without credentials;
 *   <li>otherwise it is not watched, and the reason is told once: it could only fail to log in, and
 *       sending it anything would be the leak this class exists to prevent.
 * </ul>
 */
final class PodAccess {
  private final KubernetesDiscoveryConfig settings;
  private final AnnotatedPod annotated;
  private final NamespaceSecrets secrets;

  PodAccess(KubernetesDiscoveryConfig settings, AnnotatedPod annotated, NamespaceSecrets secrets) {
    this.settings = settings;
    this.annotated = annotated;
    this.secrets = secrets;
  }

  /**
   * The pod's target with what it may receive; empty when it must wait for its Secret or may not be
   * watched (then {@code refused} is told why).
   *
   * @param target the pod's target as {@link AnnotatedPod} made it: without credentials
   */
  Optional<TargetConfig> grant(Pod pod, TargetConfig target, Consumer<String> refused) {
    if (annotated.needsNoAuth(pod)) {
      return Optional.of(target);
    }
    String namespace = pod.getMetadata().getNamespace();
    Optional<PodCredentials> rule = allowed(namespace, AnnotatedPod.labels(pod));
    if (rule.isEmpty()) {
      if (settings.credentials().isEmpty()) {
        return Optional.of(target);
      }
      refused.accept(
          "pod "
              + AnnotatedPod.id(pod)
              + " is not watched: no entry of discovery.kubernetes.credentials allows its namespace"
              + " and labels, so it gets no JMX password; annotate it "
              + annotated.key(AnnotatedPod.JMX_AUTH)
              + ": none if its JMX needs none");
      return Optional.empty();
    }
    PodCredentials credentials = rule.get();
    String username;
    Secret password;
    List<X509Certificate> authorities;
    Optional<ClientKey> clientKey = Optional.empty();
    if (credentials.secret().isPresent()) {
      NamespaceSecrets.Lookup lookup = secrets.lookup(namespace, credentials.secret().get());
      if (lookup instanceof NamespaceSecrets.Failed failed) {
        refused.accept("pod " + AnnotatedPod.id(pod) + " is not watched: " + failed.reason());
        return Optional.empty();
      }
      if (!(lookup instanceof NamespaceSecrets.Found found)) {
        return Optional.empty(); // announced when read
      }
      username = found.credentials().username();
      password = found.credentials().password();
      authorities = found.credentials().authorities();
      clientKey = found.credentials().clientKey().map(ClientKey.class::cast);
    } else {
      username = credentials.username().orElseThrow();
      password = credentials.password().orElseThrow();
      authorities = List.of();
    }
    boolean pinned = !authorities.isEmpty() || !credentials.pinnedSha256().isEmpty();
    if (clientKey.isPresent() && !pinned) {
      // The JDK's default CAs would let anyone with a public certificate receive the password.
      refused.accept(
          "pod "
              + AnnotatedPod.id(pod)
              + " is not watched: Secret "
              + namespace
              + "/"
              + credentials.secret().orElseThrow()
              + " has tls.crt and tls.key but no ca.crt: add the CA of the pod's JMX"
              + " certificate as ca.crt (or pin it with pinnedSha256); the daemon does not"
              + " trust the JDK's default CAs with a JMX password");
      return Optional.empty();
    }
    Optional<TargetTlsConfig> tls =
        pinned
            ? Optional.of(
                new TargetTlsConfig(
                    new TlsTrust.Pinned(authorities, credentials.pinnedSha256()),
                    clientKey,
                    credentials.tlsRegistry()))
            : Optional.empty();
    return Optional.of(
        new TargetConfig(
            target.name(),
            target.address(),
            Optional.of(username),
            Optional.of(password),
            target.pollInterval(),
            target.tags(),
            tls));
  }

  /** The first entry that allows a pod of this namespace with these labels. */
  Optional<PodCredentials> allowed(String namespace, java.util.Map<String, String> labels) {
    return settings.credentials().stream()
        .filter(entry -> entry.allows(namespace, labels))
        .findFirst();
  }
}
