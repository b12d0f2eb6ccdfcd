package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JmxAddressTest {
  @Test
  void hostAndPortBecomeTheStandardRmiUrl() {
    assertThat(JmxAddress.parse("localhost:9010").serviceUrl())
        .isEqualTo("service:jmx:rmi:///jndi/rmi://localhost:9010/jmxrmi");
    assertThat(JmxAddress.parse("[::1]:9010").serviceUrl())
        .isEqualTo("service:jmx:rmi:///jndi/rmi://[::1]:9010/jmxrmi");
  }

  @Test
  void aServiceUrlIsKeptAsWritten() {
    String url = "service:jmx:jmxmp://payments.internal:5555";
    assertThat(JmxAddress.parse(url).serviceUrl()).isEqualTo(url);
    assertThat(JmxAddress.parse(url).toJmxServiceUrl().getProtocol()).isEqualTo("jmxmp");
  }

  @Test
  void aServiceUrlMustParse() {
    assertThatThrownBy(() -> JmxAddress.parse("service:jmx:nonsense"))
        .hasMessage(
            "cannot read \"service:jmx:nonsense\" as a JMX service URL: Missing \"://\" after"
                + " protocol name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", ":9010", "localhost:0", "localhost:70000", "rmi://x:1"})
  void otherFormsAreRejected(String text) {
    assertThatThrownBy(() -> JmxAddress.parse(text))
        .hasMessage(
            "cannot read \""
                + text
                + "\" as a JMX address; use HOST:PORT (port 1..65535) or a service:jmx: URL");
  }

  @Test
  void pidsArePositive() {
    assertThat(new PidAddress(1234).pid()).isEqualTo(1234);
    assertThatThrownBy(() -> new PidAddress(0)).hasMessage("a process id must be positive, got 0");
  }
}
