package io.jvmsentinel.daemon.it;

import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lab JVMs whose JDK agent takes TLS (registry too) with {@code ssl.need.client.auth=true}: only a
 * client certificate the given trust store holds gets in.
 */
final class ClientCertificateAgents {
  private ClientCertificateAgents() {}

  /** The agent's password and access files for one read-write user (the pollers invoke). */
  record Login(Path passwords, Path access) {
    static Login of(Path dir, String user, String password) throws Exception {
      Path passwords = dir.resolve("jmxremote.password");
      Files.writeString(passwords, user + " " + password + "\n");
      Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
      Path access = dir.resolve("jmxremote.access");
      Files.writeString(access, user + " readwrite\n"); // as JmxSecurityIT
      return new Login(passwords, access);
    }
  }

  /**
   * A lab on {@code jdk} presenting {@code server}, trusting the clients of {@code clients}
   * (PKCS12, {@code clientsPassword}); with a password login if {@code login} is given.
   */
  static LabProcess start(
      Path jdk, Identity server, Path clients, String clientsPassword, Optional<Login> login)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Dcom.sun.management.jmxremote.ssl=true",
                "-Dcom.sun.management.jmxremote.registry.ssl=true",
                "-Dcom.sun.management.jmxremote.ssl.need.client.auth=true",
                "-Djavax.net.ssl.keyStore=" + server.keyStore(),
                "-Djavax.net.ssl.keyStorePassword=" + server.password(),
                "-Djavax.net.ssl.keyStoreType=PKCS12",
                "-Djavax.net.ssl.trustStore=" + clients,
                "-Djavax.net.ssl.trustStorePassword=" + clientsPassword,
                "-Djavax.net.ssl.trustStoreType=PKCS12",
                "-Dcom.sun.management.jmxremote.authenticate=" + login.isPresent()));
    login.ifPresent(
        l -> {
          args.add("-Dcom.sun.management.jmxremote.password.file=" + l.passwords());
          args.add("-Dcom.sun.management.jmxremote.access.file=" + l.access());
        });
    return LabSpec.builder("idle")
        .javaHome(jdk)
        .jvmArgs(args.toArray(String[]::new))
        .build()
        .startReady(Duration.ofSeconds(60));
  }
}
