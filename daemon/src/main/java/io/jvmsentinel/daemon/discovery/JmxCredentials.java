package io.jvmsentinel.daemon.discovery;

import io.jvmsentinel.daemon.config.Secret;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * The JMX credentials of one namespace, read from its Secret.
 *
 * @param username the JMX user
 * @param password its password
 * @param authorities the Secret's {@code ca.crt}: the certificates the pod's JMX must chain to;
 *     empty when the Secret has none
 */
record JmxCredentials(String username, Secret password, List<X509Certificate> authorities) {
  JmxCredentials {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    authorities = List.copyOf(authorities);
  }
}
