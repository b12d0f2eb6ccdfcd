package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a credentials Secret must hold, and what each mistake in it says. */
class NamespaceSecretsTest {
  @TempDir Path dir;

  @Test
  void usernameAndPasswordWithoutTheFinalLineBreakOfAFile() {
    NamespaceSecrets.Lookup found =
        NamespaceSecrets.parse("shop/jmx", data("username", "monitor", "password", "pw-1\n"));

    assertThat(found)
        .isEqualTo(
            new NamespaceSecrets.Found(
                new JmxCredentials(
                    "monitor",
                    Secret.of("pw-1"),
                    java.util.List.of(),
                    java.util.Optional.empty())));
  }

  @Test
  void eachMissingOrUnusableKeyIsNamedAndNoValueShown() {
    assertThat(NamespaceSecrets.parse("shop/jmx", data("username", "monitor")))
        .isEqualTo(
            new NamespaceSecrets.Failed(
                "Secret shop/jmx has no 'password' key; it needs username and password (and"
                    + " ca.crt for TLS)"));
    assertThat(NamespaceSecrets.parse("shop/jmx", data("password", "pw-2")))
        .asString()
        .contains("has no 'username' key")
        .doesNotContain("pw-2");
    assertThat(
            NamespaceSecrets.parse(
                "shop/jmx", data("username", "u", "password", "pw-3", "ca.crt", "not a cert")))
        .isEqualTo(
            new NamespaceSecrets.Failed("'ca.crt' of Secret shop/jmx holds no PEM certificate"));
  }

  @Test
  void aClientCertificateIsReadAndARotatedOneIsAChange() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity client = pki.identity("client", "client-pw-1");
    Identity renewed = pki.identity("client-renewed", "client-pw-2");

    NamespaceSecrets.Lookup found = NamespaceSecrets.parse("shop/jmx", withClientKey(client));

    JmxCredentials credentials = ((NamespaceSecrets.Found) found).credentials();
    assertThat(credentials.clientKey().orElseThrow().key())
        .isEqualTo(TestCertificates.privateKey(client));
    // Read again every minute: the same Secret is no change, a renewed certificate is one.
    assertThat(NamespaceSecrets.parse("shop/jmx", withClientKey(client))).isEqualTo(found);
    assertThat(NamespaceSecrets.parse("shop/jmx", withClientKey(renewed))).isNotEqualTo(found);
  }

  @Test
  void halfAClientCertificateOrAnUnreadableKeyIsNamedAndNoValueShown() throws Exception {
    Identity client = new TestCertificates(dir).identity("client", "client-pw-1");
    String certificate = Files.readString(client.certificate());
    String key = TestCertificates.privateKeyPem(client);

    assertThat(
            NamespaceSecrets.parse(
                "shop/jmx", data("username", "u", "password", "pw-4", "tls.crt", certificate)))
        .isEqualTo(
            new NamespaceSecrets.Failed(
                "Secret shop/jmx has 'tls.crt' but no 'tls.key': a client certificate needs"
                    + " both, as a kubernetes.io/tls Secret has them"));
    assertThat(
            NamespaceSecrets.parse(
                "shop/jmx", data("username", "u", "password", "pw-4", "tls.key", key)))
        .isEqualTo(
            new NamespaceSecrets.Failed(
                "Secret shop/jmx has 'tls.key' but no 'tls.crt': a client certificate needs"
                    + " both, as a kubernetes.io/tls Secret has them"));
    assertThat(
            NamespaceSecrets.parse(
                "shop/jmx",
                data(
                    "username",
                    "u",
                    "password",
                    "pw-4",
                    "tls.crt",
                    certificate,
                    "tls.key",
                    certificate)))
        .isEqualTo(
            new NamespaceSecrets.Failed(
                "'tls.key' of Secret shop/jmx holds no PEM private key (BEGIN PRIVATE KEY, BEGIN"
                    + " RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)"));
    assertThat(
            NamespaceSecrets.parse(
                "shop/jmx",
                data("username", "u", "password", "pw-4", "tls.crt", "garbage", "tls.key", key)))
        .isEqualTo(
            new NamespaceSecrets.Failed("'tls.crt' of Secret shop/jmx holds no PEM certificate"));
  }

  private static Map<String, String> withClientKey(Identity client) throws Exception {
    return data(
        "username",
        "monitor",
        "password",
        "pw-5",
        "ca.crt",
        Files.readString(client.certificate()),
        "tls.crt",
        Files.readString(client.certificate()),
        "tls.key",
        TestCertificates.privateKeyPem(client));
  }

  private static Map<String, String> data(String... keysAndValues) {
    Map<String, String> data = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      data.put(
          keysAndValues[i],
          Base64.getEncoder()
              .encodeToString(keysAndValues[i + 1].getBytes(StandardCharsets.UTF_8)));
    }
    return data;
  }
}
