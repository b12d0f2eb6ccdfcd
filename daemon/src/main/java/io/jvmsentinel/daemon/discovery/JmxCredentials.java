package io.jvmsentinel.daemon.discovery;

import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.Secret;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The JMX credentials of one namespace, read from its Secret.
 *
 * @param username the JMX user
 * @param password its password
 * @param authorities the Secret's {@code ca.crt}: the certificates the pod's JMX must chain to;
 *     empty when the Secret has none
 * @param clientKey the Secret's {@code tls.key} and {@code tls.crt}: what the daemon presents to
 *     the pod's JMX when it asks for a client certificate; empty when the Secret has neither
 */
record JmxCredentials(
    String username,
    Secret password,
    List<X509Certificate> authorities,
    Optional<ClientKey.InMemory> clientKey) {
  JmxCredentials {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    authorities = List.copyOf(authorities);
    Objects.requireNonNull(clientKey, "clientKey");
  }
}
