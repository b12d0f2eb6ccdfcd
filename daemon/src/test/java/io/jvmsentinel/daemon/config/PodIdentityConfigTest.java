package io.jvmsentinel.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sidecar's fixed targets take the pod's identity from the downward-API variables. */
class PodIdentityConfigTest {
  @TempDir Path dir;
  final Map<String, String> env = new HashMap<>();
  final ConfigLoader loader = new ConfigLoader(env::get);

  void inPod() {
    env.put("JVM_SENTINEL_POD_NAMESPACE", "shop");
    env.put("JVM_SENTINEL_POD_NAME", "orders-7d9f8-x2k4p");
    env.put("JVM_SENTINEL_CONTAINER_NAME", "app");
    env.put("JVM_SENTINEL_NODE_NAME", "node-1");
  }

  SentinelConfig load(String yaml, CliOverrides cli) throws Exception {
    Path file = Files.writeString(dir.resolve("c.yaml"), yaml);
    return loader.load(Optional.of(file), cli);
  }

  @Test
  void aTargetWithoutANameIsNamedAfterThePodAndTaggedWithIt() throws Exception {
    inPod();

    SentinelConfig config = load("targets:\n  - jmx: 127.0.0.1:9010\n", CliOverrides.NONE);

    TargetConfig target = config.targets().get(0);
    assertThat(target.name()).isEqualTo("orders-7d9f8-x2k4p");
    assertThat(target.tags())
        .containsExactly(
            Map.entry("namespace", "shop"),
            Map.entry("pod", "orders-7d9f8-x2k4p"),
            Map.entry("container", "app"),
            Map.entry("node", "node-1"));
    assertThat(config.tagKeys().keys()).containsExactly("namespace", "pod", "container", "node");
  }

  @Test
  void aWrittenNameStaysAndThePodTagsStillTellReplicasApart() throws Exception {
    inPod();

    SentinelConfig config =
        load(
            "targets:\n  - {name: orders, jmx: 127.0.0.1:9010, tags: {app: orders, node: n2}}\n",
            CliOverrides.NONE);

    TargetConfig target = config.targets().get(0);
    assertThat(target.name()).isEqualTo("orders");
    // The target's own tag wins over the pod's.
    assertThat(target.tags())
        .containsExactly(
            Map.entry("namespace", "shop"),
            Map.entry("pod", "orders-7d9f8-x2k4p"),
            Map.entry("container", "app"),
            Map.entry("node", "n2"),
            Map.entry("app", "orders"));
  }

  @Test
  void aCommonTagIsLeftToTheRegistry() throws Exception {
    inPod();

    SentinelConfig config =
        load("tags: {namespace: shop}\ntargets:\n  - jmx: 127.0.0.1:9010\n", CliOverrides.NONE);

    assertThat(config.targets().get(0).tags()).doesNotContainKey("namespace");
  }

  @Test
  void theCommandLinesOneTargetIsNamedAfterThePodUnlessNamed() throws Exception {
    inPod();

    SentinelConfig byPod =
        loader.load(Optional.empty(), new CliOverrides(List.of(), List.of(42L), Optional.empty()));
    SentinelConfig named =
        loader.load(
            Optional.empty(),
            new CliOverrides(List.of(), List.of(42L), Optional.empty(), Optional.of("orders")));

    assertThat(byPod.targets().get(0).name()).isEqualTo("orders-7d9f8-x2k4p");
    assertThat(byPod.targets().get(0).tags()).containsEntry("pod", "orders-7d9f8-x2k4p");
    assertThat(named.targets().get(0).name()).isEqualTo("orders");
  }

  @Test
  void outsideAPodNothingChanges() throws Exception {
    SentinelConfig config =
        loader.load(Optional.empty(), new CliOverrides(List.of(), List.of(42L), Optional.empty()));

    assertThat(config.targets().get(0).name()).isEqualTo("pid-42");
    assertThat(config.targets().get(0).tags()).isEmpty();
  }

  @Test
  void twoUnnamedTargetsInOnePodCollideWithAClearProblem() throws Exception {
    inPod();

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                load(
                    "targets:\n  - jmx: 127.0.0.1:9010\n  - jmx: 127.0.0.1:9011\n",
                    CliOverrides.NONE));

    assertThat(e.problems())
        .containsExactly(
            "targets[1] (name 'orders-7d9f8-x2k4p'): duplicate name; targets[0] is already called 'orders-7d9f8-x2k4p'");
  }
}
