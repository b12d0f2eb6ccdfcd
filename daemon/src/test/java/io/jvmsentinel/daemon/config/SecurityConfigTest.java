package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jvmsentinel.daemon.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The security keys of the configuration, in the style of {@link ConfigLoaderTest}: per-target JMX
 * TLS stores, HTTPS and HTTP authentication. Stores are opened at load time, so a missing file or a
 * wrong password is a {@code check-config} problem, not a failure at the first connection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityConfigTest {
  @TempDir Path dir;
  final Map<String, String> env = new HashMap<>();
  final ConfigLoader loader = new ConfigLoader(env::get);
  TestCertificates.Identity server;
  Path trustStore;

  @BeforeAll
  void stores(@TempDir Path stores) throws Exception {
    TestCertificates pki = new TestCertificates(stores);
    server = pki.identity("jmx-target", "key-pw-1");
    trustStore = pki.trustStore("sentinel", "trust-pw-1", server);
  }

  SentinelConfig load(String yaml) throws Exception {
    return loader.load(Files.writeString(dir.resolve("config.yaml"), yaml));
  }

  List<String> problems(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("config.yaml"), yaml);
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> loader.load(Optional.of(file), CliOverrides.NONE));
    assertThat(e).as("expected a ConfigException").isNotNull();
    return e.problems().stream().map(p -> p.replace(dir + "/", "")).toList();
  }

  @Nested
  class TargetTls {
    @Test
    void eachTargetGetsItsOwnStoresWithPasswordsFromEnvOrFile() throws Exception {
      env.put("TRUST_PW", "trust-pw-1");
      Files.writeString(dir.resolve("key-pw"), "key-pw-1\n");
      SentinelConfig config =
          load(
              """
              targets:
                - name: a
                  jmx: "a:9010"
                  tls: {trustStore: %s, trustStorePasswordEnv: TRUST_PW}
                - name: b
                  jmx: "b:9010"
                  tls:
                    trustStore: %s
                    trustStorePasswordEnv: TRUST_PW
                    keyStore: %s
                    keyStorePasswordFile: key-pw
                    registry: false
              """
                  .formatted(trustStore, trustStore, server.keyStore()));

      TargetTlsConfig a = config.targets().get(0).tls().orElseThrow();
      assertThat(a.trust())
          .isEqualTo(new TlsTrust.Store(new StoreFile(trustStore, Secret.of("trust-pw-1"))));
      assertThat(a.clientKey()).isEmpty();
      assertThat(a.registry()).as("registry TLS by default").isTrue();
      TargetTlsConfig b = config.targets().get(1).tls().orElseThrow();
      assertThat(b.clientKey())
          .contains(new ClientKey.Store(new StoreFile(server.keyStore(), Secret.of("key-pw-1"))));
      assertThat(b.registry()).isFalse();
      assertThat(config.toString()).doesNotContain("trust-pw-1").doesNotContain("key-pw-1");
    }

    @Test
    void missingStoresAndPasswordsAreNamed() throws Exception {
      env.put("TRUST_PW", "trust-pw-1");
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "a:1", tls: {trustStore: /nonexistent.p12, trustStorePasswordEnv: TRUST_PW}}
                    - {name: b, jmx: "b:1", tls: {trustStorePasswordEnv: TRUST_PW}}
                    - {name: c, jmx: "c:1", tls: {trustStore: %s}}
                    - {name: d, jmx: "d:1", tls: {trustStore: %s, trustStorePasswordEnv: NOPE}}
                  """
                      .formatted(trustStore, trustStore)))
          .containsExactly(
              "'targets[0].tls.trustStore': /nonexistent.p12 does not exist or is not a file",
              "'targets[1].tls.trustStore' is required",
              "'targets[2].tls' needs 'trustStorePasswordEnv' or 'trustStorePasswordFile'; the"
                  + " trustStorePassword is a secret and is never written in the configuration"
                  + " file",
              "'targets[3].tls': environment variable 'NOPE' (trustStorePasswordEnv) is not set");
    }

    @Test
    void aWrongPasswordOrAStoreOfTheWrongKindIsCaughtAtCheckConfigTime() throws Exception {
      env.put("WRONG", "not-the-password");
      env.put("TRUST_PW", "trust-pw-1");
      env.put("KEY_PW", "key-pw-1");
      Files.writeString(dir.resolve("garbage.p12"), "not a key store");
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "a:1", tls: {trustStore: %s, trustStorePasswordEnv: WRONG}}
                    - {name: b, jmx: "b:1", tls: {trustStore: garbage.p12, trustStorePasswordEnv: TRUST_PW}}
                    - name: c
                      jmx: "c:1"
                      tls: {trustStore: %s, trustStorePasswordEnv: TRUST_PW, keyStore: %s, keyStorePasswordEnv: TRUST_PW}
                  """
                      .formatted(trustStore, trustStore, trustStore)))
          .containsExactly(
              "'targets[0].tls.trustStore': "
                  + trustStore
                  + " cannot be opened with the given password (wrong password?)",
              "'targets[1].tls.trustStore': garbage.p12 is not a PKCS12 or JKS key store:"
                  + " KeyStoreException",
              "'targets[2].tls.keyStore': "
                  + trustStore
                  + " holds no private key (is it a trust"
                  + " store?)");
    }

    @Test
    void tlsNeedsARegistryAddress() throws Exception {
      env.put("TRUST_PW", "trust-pw-1");
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, pid: 42, tls: {trustStore: %s, trustStorePasswordEnv: TRUST_PW}}
                    - name: b
                      jmx: "service:jmx:rmi://b:9010/stub/rO0ABQ"
                      tls: {trustStore: %s, trustStorePasswordEnv: TRUST_PW}
                  """
                      .formatted(trustStore, trustStore)))
          .containsExactly(
              "targets[0] (name 'a'): 'tls' applies to 'jmx' targets only; attach by pid needs no"
                  + " network",
              "targets[1] (name 'b'): 'tls' needs 'jmx' as HOST:PORT or"
                  + " service:jmx:rmi:///jndi/rmi://HOST:PORT/NAME");
    }

    @Test
    void unknownKeysInTlsAreNamed() throws Exception {
      assertThat(
              problems(
                  """
                  targets:
                    - {name: a, jmx: "a:1", tls: {trustStorePassword: oops}}
                  """))
          .anySatisfy(p -> assertThat(p).contains("'targets[0].tls.trustStorePassword'"))
          .allSatisfy(p -> assertThat(p).doesNotContain("oops"));
    }
  }

  @Nested
  class Http {
    @Test
    void defaultsArePlainHttpWithoutAuthentication() throws Exception {
      SentinelConfig config = load("targets: [{name: a, jmx: \"a:1\"}]\n");
      assertThat(config.http().tls()).isEmpty();
      assertThat(config.http().auth()).isEqualTo(HttpAuth.NONE);
    }

    @Test
    void httpsAndBasicAuth() throws Exception {
      env.put("KEY_PW", "key-pw-1");
      env.put("SCRAPE_PW", "scrape-pw-1");
      SentinelConfig config =
          load(
              """
              http:
                listen: 127.0.0.1:9404
                tls: {keyStore: %s, keyStorePasswordEnv: KEY_PW}
                auth:
                  basic: {username: prometheus, passwordEnv: SCRAPE_PW}
              targets: [{name: a, jmx: "a:1"}]
              """
                  .formatted(server.keyStore()));

      assertThat(config.http().tls())
          .contains(new StoreFile(server.keyStore(), Secret.of("key-pw-1")));
      assertThat(config.http().auth())
          .isEqualTo(new HttpAuth.Basic("prometheus", Secret.of("scrape-pw-1")));
      assertThat(config.toString()).doesNotContain("scrape-pw-1").doesNotContain("key-pw-1");
    }

    @Test
    void bearerTokenFromAFile() throws Exception {
      Files.writeString(dir.resolve("token"), "tok-1\n");
      SentinelConfig config =
          load(
              """
              http:
                auth: {bearer: {tokenFile: token}}
              targets: [{name: a, jmx: "a:1"}]
              """);
      assertThat(config.http().auth()).isEqualTo(new HttpAuth.Bearer(Secret.of("tok-1")));
    }

    @Test
    void everyMistakeIsNamed() throws Exception {
      env.put("WRONG", "wrong");
      env.put("PW", "pw");
      assertThat(
              problems(
                  """
                  http:
                    tls: {keyStore: %s, keyStorePasswordEnv: WRONG}
                    auth:
                      basic: {username: "a:b", passwordEnv: PW}
                      bearer: {tokenEnv: PW}
                  targets: [{name: a, jmx: "a:1"}]
                  """
                      .formatted(server.keyStore())))
          .containsExactly(
              "'http.tls.keyStore': "
                  + server.keyStore()
                  + " cannot be opened with the given password (wrong password?)",
              "'http.auth' needs exactly one of 'basic' or 'bearer'; both are set");
      assertThat(
              problems(
                  """
                  http:
                    tls: {keyStore: %s, keyStorePasswordEnv: PW}
                    auth:
                      basic: {username: "a:b", passwordFile: /nonexistent/pw}
                  targets: [{name: a, jmx: "a:1"}]
                  """
                      .formatted(trustStore)))
          .containsExactly(
              "'http.tls.keyStore': "
                  + trustStore
                  + " cannot be opened with the given password"
                  + " (wrong password?)",
              "'http.auth.basic.username' is required, without ':'",
              "'http.auth.basic': passwordFile /nonexistent/pw does not exist");
      assertThat(
              problems(
                  """
                  http:
                    auth: {bearer: {}}
                  targets: [{name: a, jmx: "a:1"}]
                  """))
          .containsExactly(
              "'http.auth.bearer' needs 'tokenEnv' or 'tokenFile'; the token is a secret and is"
                  + " never written in the configuration file");
    }
  }
}
