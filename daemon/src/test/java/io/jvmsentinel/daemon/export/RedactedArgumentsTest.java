package io.jvmsentinel.daemon.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedactedArgumentsTest {
  @Test
  void secretLookingOptionsLoseTheirValuesAndTheRestIsKept() {
    assertThat(
            RedactedArguments.of(
                List.of(
                    "-Djavax.net.ssl.keyStorePassword=changeit",
                    "-Djavax.net.ssl.trustStorePassword=changeit",
                    "-Dcom.sun.management.jmxremote.password.file=/etc/jmx/password",
                    "-Ddb.secret=s",
                    "-Dapi.token=t",
                    "-Dstripe.api-key=k",
                    "-Djavax.net.ssl.keyStore=/etc/ks.p12",
                    "-Xmx512m",
                    "-XX:ReservedCodeCacheSize=240m")))
        .containsExactly(
            "-Djavax.net.ssl.keyStorePassword=****",
            "-Djavax.net.ssl.trustStorePassword=****",
            "-Dcom.sun.management.jmxremote.password.file=****",
            "-Ddb.secret=****",
            "-Dapi.token=****",
            "-Dstripe.api-key=****",
            "-Djavax.net.ssl.keyStore=/etc/ks.p12",
            "-Xmx512m",
            "-XX:ReservedCodeCacheSize=240m");
  }
}
