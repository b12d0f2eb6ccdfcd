package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabEventTest {

  @Test
  void parsesLabLines() {
    LabEvent onset =
        LabEvent.parse(
                "LAB onset scenario=thread-per-request phase=storm rate=200 at=1700000000000")
            .orElseThrow();

    assertThat(onset.type()).isEqualTo("onset");
    assertThat(onset.phase()).hasValue("storm");
    assertThat(onset.attribute("rate")).hasValue("200");
    assertThat(onset.atEpochMillis()).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void ignoresOtherOutput() {
    assertThat(LabEvent.parse("OpenJDK 64-Bit Server VM warning: ...")).isEmpty();
    assertThat(LabEvent.parse("LAB")).isEmpty();
    assertThat(LabEvent.parse("")).isEmpty();
  }

  @Test
  void specBuildsTheCommandLine() {
    LabSpec spec =
        LabSpec.builder("thread-per-request")
            .javaHome(Path.of("/jdk"))
            .classpath("/lab.jar")
            .jvmArgs("-XX:ReservedCodeCacheSize=16m")
            .rate(50)
            .build();

    List<String> command = spec.command(9999);

    assertThat(command.get(0)).isEqualTo("/jdk/bin/java");
    assertThat(command)
        .contains(
            "-Dcom.sun.management.jmxremote.port=9999",
            "-Dcom.sun.management.jmxremote.rmi.port=9999",
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false")
        .endsWith(
            "-XX:ReservedCodeCacheSize=16m",
            "-cp",
            "/lab.jar",
            "io.jvmsentinel.lab.LabMain",
            "thread-per-request",
            "--rate",
            "50");
    assertThat(spec.withJmxPort(1234).command(1234))
        .contains("-Dcom.sun.management.jmxremote.port=1234");
    assertThat(LabSpec.builder("idle").withoutJmxRemote().build().command(0))
        .noneMatch(arg -> arg.contains("jmxremote"));
  }

  @Test
  void defaultClasspathIsWhereTheLabClassesLive() throws Exception {
    // A directory in the IDE and `test`, the lab module's jar from `verify`, the daemon's jar in
    // demo.
    URL labClasspath = Path.of(LabSpec.defaultClasspath()).toUri().toURL();
    try (URLClassLoader isolated = new URLClassLoader(new URL[] {labClasspath}, null)) {
      assertThat(isolated.loadClass("io.jvmsentinel.lab.LabMain").getName())
          .isEqualTo("io.jvmsentinel.lab.LabMain");
    }
  }
}
