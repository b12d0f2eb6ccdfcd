package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.Main;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckConfigCommandTest {
  @TempDir Path dir;

  /**
   * An expired client certificate is no configuration problem (the key store is read again at each
   * connect, so a renewed file needs no restart), but check-config says now that the agent will
   * refuse it.
   */
  @Test
  void anExpiredClientCertificateIsValidButWarnedOf() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity ca = pki.authority("orders-ca", "ca-pw-6612");
    Identity expired = pki.issued(ca, "sentinel-2025", "client-pw-1", "-3d", 1);
    Path trust = pki.trustStore("orders", "trust-pw-1", ca);
    Files.writeString(dir.resolve("client.pw"), "client-pw-1\n");
    Files.writeString(dir.resolve("trust.pw"), "trust-pw-1\n");
    Path config =
        Files.writeString(
            dir.resolve("sentinel.yaml"),
            """
            targets:
              - name: orders
                jmx: "127.0.0.1:9010"
                tls:
                  trustStore: %s
                  trustStorePasswordFile: trust.pw
                  keyStore: %s
                  keyStorePasswordFile: client.pw
            """
                .formatted(trust, expired.keyStore()));
    StringWriter out = new StringWriter();

    int exit =
        Main.commandLine()
            .setOut(new PrintWriter(out, true))
            .execute("check-config", config.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains(config + ": OK, 1 target(s): [orders]")
        .contains(
            "warning: target orders: the client certificate in "
                + expired.keyStore()
                + " (CN=sentinel-2025, issued by CN=orders-ca) will be refused by its agent: it"
                + " expired at ")
        .doesNotContain("client-pw-1", "trust-pw-1");
  }
}
