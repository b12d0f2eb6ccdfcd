package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretTest {
  @Test
  void toStringNeverShowsTheValue() {
    Secret secret = Secret.of("s3cret");
    assertThat(secret.value()).isEqualTo("s3cret");
    assertThat(secret.toString()).isEqualTo("****");
  }

  @Test
  void recordsHoldingASecretDoNotShowIt() {
    TargetConfig target =
        new TargetConfig(
            "orders",
            JmxAddress.parse("localhost:9010"),
            Optional.of("monitor"),
            Optional.of(Secret.of("s3cret")),
            Duration.ofSeconds(10),
            Map.of());
    assertThat(target.toString()).doesNotContain("s3cret").contains("password=Optional[****]");
  }

  @Test
  void equalByValue() {
    assertThat(Secret.of("a")).isEqualTo(Secret.of("a")).isNotEqualTo(Secret.of("b"));
    assertThat(Secret.of("a").hashCode()).isEqualTo(Secret.of("b").hashCode());
  }
}
