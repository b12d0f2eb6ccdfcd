package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostPortTest {
  @Test
  void readsHostAndPort() {
    assertThat(HostPort.parse("localhost:9010")).isEqualTo(new HostPort("localhost", 9010));
    assertThat(HostPort.parse("0.0.0.0:9404")).isEqualTo(new HostPort("0.0.0.0", 9404));
  }

  @Test
  void anEmptyHostMeansAnyLocalAddress() {
    HostPort any = HostPort.parse(":9404");
    assertThat(any).isEqualTo(new HostPort("", 9404));
    assertThat(any.anyHost()).isTrue();
    assertThat(any.toString()).isEqualTo(":9404");
  }

  @Test
  void ipv6LiteralsAreWrittenInBrackets() {
    HostPort loopback = HostPort.parse("[::1]:9010");
    assertThat(loopback).isEqualTo(new HostPort("::1", 9010));
    assertThat(loopback.toString()).isEqualTo("[::1]:9010");
  }

  @Test
  void portZeroIsAllowedForAnEphemeralPort() {
    assertThat(HostPort.parse("127.0.0.1:0").port()).isZero();
  }

  @Test
  void rejectsPortsAbove65535() {
    assertThatThrownBy(() -> HostPort.parse("localhost:65536"))
        .hasMessage("port 65536 in \"localhost:65536\" is out of range 0..65535");
  }

  @Test
  void rejectsIpv6WithoutBrackets() {
    assertThatThrownBy(() -> HostPort.parse("::1:9010"))
        .hasMessage(
            "cannot read \"::1:9010\" as host:port; write IPv6 addresses in brackets, e.g."
                + " [::1]:9010");
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "9404", "localhost:", "localhost:http", "a b:1", "[]:1"})
  void rejectsOtherFormsNamingTheAcceptedOnes(String text) {
    assertThatThrownBy(() -> HostPort.parse(text))
        .hasMessage(
            "cannot read \""
                + text
                + "\" as host:port; use e.g. localhost:9010, :9404 or [::1]:9010");
  }
}
