package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DogStatsdAddressTest {
  @ParameterizedTest
  @CsvSource({
    "udp://agent:8125, udp://agent:8125, false",
    "udp://agent, udp://agent:8125, false",
    "UDP://10.0.0.7:18125, udp://10.0.0.7:18125, false",
    "udp://[::1]:8125, udp://[::1]:8125, false",
    "unix:///var/run/datadog/dsd.socket, unix:///var/run/datadog/dsd.socket, true",
  })
  void acceptedForms(String text, String url, boolean unixSocket) {
    DogStatsdAddress address = DogStatsdAddress.parse(text);

    assertThat(address.url()).isEqualTo(url);
    assertThat(address.unixSocket()).isEqualTo(unixSocket);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "agent:8125",
        "tcp://agent:8125",
        "udp://agent:0",
        "udp://agent:8125/path",
        "udp://user@agent:8125",
        "udp://",
        "unix://relative/dsd.socket",
        "unix:///",
        "unixstream:///var/run/datadog/dsd.socket",
        "udp://agent:8125?x=1",
      })
  void otherFormsAreRefusedWithTheAcceptedOnes(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> DogStatsdAddress.parse(text))
        .withMessage(
            "cannot read \""
                + text
                + "\" as a DogStatsD address; use udp://host:port or unix:///path/to/dsd.socket");
  }
}
