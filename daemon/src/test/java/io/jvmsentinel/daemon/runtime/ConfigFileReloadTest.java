package io.jvmsentinel.daemon.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.config.CliOverrides;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.TargetConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A changed, valid file replaces the file's targets; an invalid one keeps the running set. */
class ConfigFileReloadTest {
  @TempDir Path dir;
  private Path file;
  private final List<List<String>> received = new ArrayList<>();
  private ConfigFileReload reload;

  @BeforeEach
  void start() throws Exception {
    file = dir.resolve("sentinel.yaml");
    write("orders", "payments");
    CliOverrides cli = new CliOverrides(List.of(), List.of(4242L), Optional.empty());
    ConfigLoader loader = new ConfigLoader(variable -> null);
    reload =
        new ConfigFileReload(
            file,
            cli,
            loader,
            loader.load(Optional.of(file), cli),
            targets -> received.add(targets.stream().map(TargetConfig::name).toList()));
    reload.start(Duration.ofHours(1)); // the test calls check() itself
  }

  @AfterEach
  void stop() {
    reload.close();
  }

  @Test
  void anUnchangedFileReloadsNothing() {
    reload.check();
    assertThat(received).isEmpty();
  }

  @Test
  void aChangedFileHandsOverItsTargetsWithTheCommandLines() throws Exception {
    write("orders", "billing");
    reload.check();
    assertThat(received).containsExactly(List.of("orders", "billing", "pid-4242"));
    reload.check(); // the same content again: nothing more
    assertThat(received).hasSize(1);
  }

  @Test
  void anInvalidFileKeepsTheRunningTargetsAndTheNextValidOneApplies() throws Exception {
    Files.writeString(file, "targets:\n  - name: bad name\n    jmx: nowhere\n");
    reload.check();
    assertThat(received).isEmpty();

    write("orders");
    reload.check();
    assertThat(received).containsExactly(List.of("orders", "pid-4242"));
  }

  @Test
  void aVanishedFileKeepsTheRunningTargets() throws Exception {
    Files.delete(file);
    reload.check();
    assertThat(received).isEmpty();
  }

  @Test
  void targetsWithTagKeysTheDaemonDidNotStartWithAreRefusedUntilARestart() throws Exception {
    Files.writeString(
        file, "targets:\n  - name: orders\n    jmx: localhost:9010\n    tags: {team: a}\n");
    reload.check();
    assertThat(received).isEmpty();

    write("orders", "billing"); // no tags again: applies
    reload.check();
    assertThat(received).containsExactly(List.of("orders", "billing", "pid-4242"));
  }

  @Test
  void reloadNowReadsTheFileAgainEvenWhenItLooksUnchanged() {
    reload.reloadNow();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(received).containsExactly(List.of("orders", "payments", "pid-4242")));
  }

  private void write(String... names) throws Exception {
    StringBuilder yaml = new StringBuilder("targets:\n");
    int port = 9010;
    for (String name : names) {
      yaml.append("  - name: ").append(name).append("\n    jmx: localhost:").append(port++);
      yaml.append('\n');
    }
    Files.writeString(file, yaml);
  }
}
