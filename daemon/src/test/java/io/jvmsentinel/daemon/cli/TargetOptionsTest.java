package io.jvmsentinel.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The {@code --discover} flags: what they turn into, and the errors they give. */
class TargetOptionsTest {
  @Test
  void discoverLocalWithFiltersBecomesTheSettings() {
    LocalDiscoveryConfig settings =
        parse("--discover", "local", "--discover-include", "^com\\.example\\.")
            .localDiscovery()
            .orElseThrow();
    Optional<String> user = Optional.of("app");
    assertThat(settings.watches("Orders", "com.example.Orders --port 1", user)).isTrue();
    assertThat(settings.watches("GradleDaemon", "org.gradle.GradleDaemon", user)).isFalse();
    assertThat(parse().localDiscovery()).isEmpty();
    assertThat(parse("--discover", "local").overrides().discovery()).isPresent();
  }

  @Test
  void anUnknownProviderABadPatternOrAFilterWithoutDiscoveryIsAClearError() {
    assertThatThrownBy(() -> parse("--discover", "k8s").localDiscovery())
        .hasMessage("--discover k8s: unknown provider; use 'local' or 'kubernetes'");
    assertThatThrownBy(
            () -> parse("--discover", "kubernetes", "--discover-include", "x").localDiscovery())
        .hasMessage("--discover-include and --discover-exclude need --discover local");
    assertThatThrownBy(
            () -> parse("--discover", "local", "--discover-exclude", "(").localDiscovery())
        .hasMessageStartingWith("--discover-exclude (: not a regular expression: ");
    assertThatThrownBy(() -> parse("--discover-include", "x").localDiscovery())
        .hasMessage("--discover-include and --discover-exclude need --discover local");
  }

  @Test
  void discoverKubernetesAsksForTheKubernetesProvider() {
    assertThat(parse("--discover", "kubernetes").overrides().kubernetes()).isTrue();
    assertThat(parse("--discover", "kubernetes").overrides().discovery()).isEmpty();
    assertThat(parse("--discover", "local").overrides().kubernetes()).isFalse();
    assertThat(parse().overrides().kubernetes()).isFalse();
  }

  private static TargetOptions parse(String... args) {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs(args);
    return run.options;
  }
}
