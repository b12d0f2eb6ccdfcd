package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A launcher's arguments read as the Attach API's command line: main, then program arguments. */
class JavaCommandLineTest {

  @Test
  void optionsAndTheirSeparateValuesAreSkippedUpToTheMainClass() {
    assertThat(
            JavaCommandLine.of(
                List.of(
                    "/usr/bin/java",
                    "-Xmx64m",
                    "-cp",
                    "a.jar:b.jar",
                    "-Dx=y",
                    "--add-opens",
                    "java.base/java.lang=ALL-UNNAMED",
                    "-classpath",
                    "c",
                    "--class-path",
                    "d",
                    "com.example.Main",
                    "--port",
                    "8080")))
        .isEqualTo("com.example.Main --port 8080");
  }

  @Test
  void aJarIsReportedByItsPathAndAModuleByModuleSlashClass() {
    assertThat(JavaCommandLine.of(List.of("java", "-XX:+UseG1GC", "-jar", "/app/orders.jar", "x")))
        .isEqualTo("/app/orders.jar x");
    assertThat(
            JavaCommandLine.of(
                List.of("java", "-p", "mods", "-m", "com.example/com.example.Main", "serve")))
        .isEqualTo("com.example/com.example.Main serve");
    assertThat(
            JavaCommandLine.of(
                List.of("java", "--module-path=mods", "--module=com.example/com.example.Main")))
        .isEqualTo("com.example/com.example.Main");
    // Arguments after the main class that look like options are the program's own.
    assertThat(JavaCommandLine.of(List.of("java", "Main", "-cp", "x"))).isEqualTo("Main -cp x");
  }

  @Test
  void withoutAMainClassOrJarTheCommandLineIsEmpty() {
    assertThat(JavaCommandLine.of(List.of())).isEmpty();
    assertThat(JavaCommandLine.of(List.of("java"))).isEmpty();
    assertThat(JavaCommandLine.of(List.of("java", "-version"))).isEmpty();
    assertThat(JavaCommandLine.of(List.of("java", "-jar"))).isEmpty();
    assertThat(JavaCommandLine.of(List.of("java", "-cp"))).isEmpty();
  }
}
