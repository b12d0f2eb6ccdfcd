package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every layout of test/resources/cgroup (described in its README). */
class ProcessCgroupTest {
  static final String UID = "0f2d6e3a-5b1c-4d7e-9a8b-1c2d3e4f5a6b";
  static final String CONTAINER =
      "4e3b2f0c9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c";

  static ProcessCgroup fixture(String name) throws URISyntaxException {
    return ProcessCgroup.read(
        Path.of(ProcessCgroupTest.class.getResource("/cgroup/" + name).toURI()));
  }

  /** The fixtures of a container of the pod {@link #UID} running as {@link #CONTAINER}. */
  static Stream<String> podLayouts() {
    return Stream.of(
        "v1-cgroupfs.txt",
        "v1-systemd.txt",
        "v2-systemd.txt",
        "v2-cgroupfs.txt",
        "v2-systemd-guaranteed-crio.txt",
        "v2-systemd-docker.txt",
        "v2-cgroup-namespace.txt");
  }

  @ParameterizedTest
  @MethodSource("podLayouts")
  void aContainerOfAPodIsFoundInEveryLayout(String file) throws Exception {
    assertThat(fixture(file))
        .isEqualTo(new ProcessCgroup(Optional.of(UID), Optional.of(CONTAINER), Optional.empty()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"v2-static-pod.txt"})
  void aStaticPodIsFoundByItsManifestHash(String file) throws Exception {
    assertThat(fixture(file).podUid()).contains("6c1a1d3b2e9f4a5b8c7d6e5f4a3b2c1d");
    assertThat(fixture(file).containerId()).contains(CONTAINER);
  }

  @ParameterizedTest
  @ValueSource(strings = {"v2-systemd-service.txt", "v1-systemd-template-service.txt"})
  void outsideKubernetesASystemdServiceIsFound(String file) throws Exception {
    ProcessCgroup cgroup = fixture(file);
    assertThat(cgroup.podUid()).isEmpty();
    assertThat(cgroup.service()).hasValueSatisfying(s -> assertThat(s).startsWith("kafka"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"v2-user-session.txt", "v1-docker-no-kubernetes.txt", "hostile.txt", "missing"})
  void nothingIsBelievedWhereThePathSaysNothing(String file) throws Exception {
    ProcessCgroup cgroup =
        file.equals("missing")
            ? ProcessCgroup.read(Path.of("/proc/no-such-pid/cgroup"))
            : fixture(file);
    assertThat(cgroup).isEqualTo(ProcessCgroup.NONE);
  }
}
