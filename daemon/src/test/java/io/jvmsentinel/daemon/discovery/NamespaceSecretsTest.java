package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a credentials Secret must hold, and what each mistake in it says. */
class NamespaceSecretsTest {
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
