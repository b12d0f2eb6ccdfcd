package io.jvmsentinel.daemon.runtime;

import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.tls.ClientCertificateCheck;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, when targets are (re)loaded, each client certificate of a {@code tls.keyStore} that its
 * agent will refuse (expired, not yet valid, not for client authentication): said once at start-up
 * rather than only as a failed connect that TLS 1.3 may turn into a bare broken pipe.
 */
final class ClientCertificateWarnings {
  private static final Logger log = LoggerFactory.getLogger(ClientCertificateWarnings.class);

  private ClientCertificateWarnings() {}

  static void log(List<TargetConfig> targets) {
    ClientCertificateCheck.ofKeyStores(targets, Instant.now()).forEach(log::warn);
  }
}
