package io.jvmsentinel.daemon.config;

import java.util.Objects;
import java.util.Optional;

/**
 * TLS to one target's JMX agent ({@code com.sun.management.jmxremote.ssl=true}). Each target has
 * its own stores: nothing is set JVM-wide, so targets with different CAs share one daemon.
 *
 * @param trust what this target's JMX certificate must chain to or match: a trust store file, or
 *     certificates and fingerprints pinned in memory (discovery, from a Kubernetes Secret)
 * @param clientKey the daemon's client key and certificate (a key store file, or in memory from a
 *     Kubernetes Secret), for targets with {@code
 *     com.sun.management.jmxremote.ssl.need.client.auth=true}
 * @param registry whether the RMI registry uses TLS too ({@code
 *     com.sun.management.jmxremote.registry.ssl=true}); default true
 */
public record TargetTlsConfig(TlsTrust trust, Optional<ClientKey> clientKey, boolean registry) {
  public TargetTlsConfig {
    Objects.requireNonNull(trust, "trust");
    Objects.requireNonNull(clientKey, "clientKey");
  }
}
