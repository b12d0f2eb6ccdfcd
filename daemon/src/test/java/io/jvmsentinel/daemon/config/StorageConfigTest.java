package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code storage} section: the one disk budget and the dump limit. */
class StorageConfigTest {
  private static final String TARGET = "targets:\n  - name: a\n    jmx: localhost:9010\n";

  @TempDir Path dir;
  private final ConfigLoader loader = new ConfigLoader(name -> null);

  private SentinelConfig load(String yaml) throws Exception {
    return loader.load(Files.writeString(dir.resolve("config.yaml"), yaml));
  }

  @Test
  void defaultsFitTheNodeAgentsEmptyDir() throws Exception {
    assertThat(load(TARGET).storage()).isEqualTo(new StorageConfig(1536, 50, 2));
  }

  @Test
  void eachSettingIsRead() throws Exception {
    assertThat(
            load(TARGET
                    + "storage:\n  maxDiskMb: 900\n  streamsPercent: 30\n"
                    + "  maxConcurrentDumps: 4\n")
                .storage())
        .isEqualTo(new StorageConfig(900, 30, 4));
  }

  @Test
  void outOfRangeValuesAreNamedTogether() throws Exception {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                load(
                    TARGET
                        + "storage:\n  maxDiskMb: 10\n  streamsPercent: 95\n"
                        + "  maxConcurrentDumps: 0\n"));
    assertThat(e.problems())
        .anySatisfy(p -> assertThat(p).contains("'storage.maxDiskMb' (10) must be at least 64"))
        .anySatisfy(
            p -> assertThat(p).contains("'storage.streamsPercent' (95) must be between 10 and 90"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("'storage.maxConcurrentDumps' (0) must be between 1 and 16"));
  }

  @Test
  void anUnknownKeyIsRefused() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> load(TARGET + "storage:\n  maxDisk: 900\n"));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("maxDisk"));
  }
}
