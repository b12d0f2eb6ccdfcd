package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reload names the sections that changed but apply only at a restart, and no others. */
class RestartOnlySectionsTest {
  private static final String FILE =
      """
      tags: {env: prod}
      connection: {connectTimeout: 5s}
      detection: {interval: 5s}
      discovery:
        maxTargets: 50
        local:
          include: [{mainClass: "^com\\\\.example\\\\."}]
          exclude: [{commandLine: "jvm-sentinel"}]
        kubernetes:
          namespaces: [shop]
          include: [{labels: {app: "web.*"}}]
          labelTags: {app: app}
      targets:
        - {name: orders, jmx: "localhost:9010"}
      """;

  @TempDir Path dir;

  @Test
  void theSameFileReadTwiceHasNoChangedSection() throws Exception {
    assertThat(RestartOnlySections.changed(load(FILE), load(FILE))).isEmpty();
  }

  @Test
  void changedSectionsAreNamedInFileOrderAndTargetsAreNotAmongThem() throws Exception {
    String changed =
        FILE.replace("env: prod", "env: staging")
            .replace("interval: 5s", "interval: 10s")
            .replace("jvm-sentinel", "sidecar")
            .replace("web.*", "api.*")
            .replace("maxTargets: 50", "maxTargets: 60")
            .replace("orders", "billing");
    assertThat(RestartOnlySections.changed(load(FILE), load(changed)))
        .containsExactly(
            "tags", "detection", "discovery.local", "discovery.kubernetes", "discovery.maxTargets");
  }

  private SentinelConfig load(String yaml) throws Exception {
    Path file = Files.createTempFile(dir, "sentinel", ".yaml");
    Files.writeString(file, yaml);
    return new ConfigLoader(variable -> null)
        .load(Optional.of(file), new CliOverrides(List.of(), List.of(), Optional.empty()));
  }
}
