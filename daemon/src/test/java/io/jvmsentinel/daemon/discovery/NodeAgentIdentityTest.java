package io.jvmsentinel.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jvmsentinel.daemon.config.LocalDiscoveryConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.identity.PodIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node agent's JVMs named after their pods: the pod's UID from the JVM's cgroup, the pod from the
 * API (fabric8's mock server), names that stay when a JVM restarts.
 */
class NodeAgentIdentityTest {
  private static final Duration POLL = Duration.ofSeconds(10);
  private static final String CONTAINER = ProcessCgroupTest.CONTAINER;
  private static final LocalDiscoveryConfig SETTINGS =
      new LocalDiscoveryConfig(Duration.ofSeconds(5), POLL, List.of(), List.of());

  private final MockApiServer api = new MockApiServer();
  private final AtomicLong nanos = new AtomicLong();
  private final KubernetesPods pods =
      new KubernetesPods(api.client(), Optional.of("node-1"), nanos::get);

  @AfterEach
  void close() {
    api.close();
  }

  /**
   * A pod on {@code node} with the containers "sidecar" and "app", app running as CONTAINER;
   * returns the UID the API server gave it (the mock, like a real one, sets its own).
   */
  private String create(String name, String node) {
    Pod pod =
        MockApiServer.runningPod("shop", name, "10.0.0.7", node)
            .editSpec()
            .addNewContainer()
            .withName("sidecar")
            .withImage("example/sidecar")
            .endContainer()
            .endSpec()
            .editStatus()
            .withContainerStatuses(
                new ContainerStatusBuilder()
                    .withName("sidecar")
                    .withContainerID("containerd://" + "ab".repeat(32))
                    .build(),
                new ContainerStatusBuilder()
                    .withName("app")
                    .withContainerID("containerd://" + CONTAINER)
                    .build())
            .endStatus()
            .build();
    return api.client().pods().inNamespace("shop").resource(pod).create().getMetadata().getUid();
  }

  /** The lists of pods the lookup asked for (the test's own creates left out). */
  private List<String> lists() {
    return api.paths().stream().filter(p -> p.startsWith("/api/v1/pods")).toList();
  }

  private static LocalJvm jvm(long pid, ProcessCgroup cgroup) {
    return new LocalJvm(pid, "com.example.orders.OrdersMain", Optional.empty(), false, cgroup);
  }

  private static ProcessCgroup inPod(String uid) {
    return inPod(uid, CONTAINER);
  }

  private static ProcessCgroup inPod(String uid, String container) {
    return new ProcessCgroup(Optional.of(uid), Optional.of(container), Optional.empty());
  }

  @Test
  void aJvmInAPodIsNamedAndTaggedAfterItsPodAndContainer() {
    String uid = create("orders-7d9f8-x2k4p", "node-1");

    assertThat(pods.find(inPod(uid)))
        .isEqualTo(new PodIdentity("shop", "orders-7d9f8-x2k4p", "app", "node-1"));
    TargetConfig target =
        new LocalDiscovery(SETTINGS, () -> List.of(jvm(4242, inPod(uid))), t -> {}, pods, "node-1")
            .discover()
            .get(0);
    assertThat(target.name()).isEqualTo("shop.orders-7d9f8-x2k4p.app");
    assertThat(target.tags())
        .containsExactly(
            Map.entry("main_class", "com.example.orders.OrdersMain"),
            Map.entry("pid", "4242"),
            Map.entry("pod_uid", uid),
            Map.entry("namespace", "shop"),
            Map.entry("pod", "orders-7d9f8-x2k4p"),
            Map.entry("container", "app"),
            Map.entry("node", "node-1"));
  }

  @Test
  void theNameStaysWhenTheJvmRestartsWithANewPid() {
    String uid = create("orders-7d9f8-x2k4p", "node-1");
    LocalDiscovery before =
        new LocalDiscovery(SETTINGS, () -> List.of(jvm(4242, inPod(uid))), t -> {}, pods, "");
    LocalDiscovery after =
        new LocalDiscovery(SETTINGS, () -> List.of(jvm(5151, inPod(uid))), t -> {}, pods, "");

    assertThat(after.discover().get(0).name()).isEqualTo(before.discover().get(0).name());
  }

  @Test
  void aPodStartedSinceTheLastListIsFoundByListingAgainButNotMoreOftenThanTheInterval() {
    String uid = create("orders-a", "node-1");
    assertThat(pods.find(inPod(uid)).pod()).isEqualTo("orders-a");
    String newUid = create("orders-b", "node-1");

    // Listed a moment ago: not again yet.
    assertThat(pods.find(inPod(newUid))).isEqualTo(PodIdentity.NONE);
    nanos.addAndGet(KubernetesPods.RELIST_AFTER.toNanos());
    assertThat(pods.find(inPod(newUid)).pod()).isEqualTo("orders-b");
    assertThat(lists()).hasSize(2);
  }

  @Test
  void podsOfOtherNodesAreNotListed() {
    String uid = create("elsewhere", "node-2");

    assertThat(pods.find(inPod(uid))).isEqualTo(PodIdentity.NONE);
    assertThat(lists())
        .isNotEmpty()
        .allMatch(p -> p.contains("fieldSelector=spec.nodeName%3Dnode-1"));
  }

  @Test
  void withoutRbacJvmsAreNamedAfterTheirPodUidWithTheNodeTag() {
    String uid = create("orders-a", "node-1");
    api.refuse(true);

    TargetConfig target =
        new LocalDiscovery(SETTINGS, () -> List.of(jvm(4242, inPod(uid))), t -> {}, pods, "node-1")
            .discover()
            .get(0);
    assertThat(target.name()).isEqualTo("OrdersMain-" + uid.substring(0, 8));
    assertThat(target.tags())
        .containsEntry("node", "node-1")
        .containsEntry("pod_uid", uid)
        .doesNotContainKey("pod");
  }

  /** Named from the cgroup alone (no token): what a fresh list of the node's JVMs names them. */
  private static List<TargetConfig> withoutApi(LocalJvm... jvms) {
    return new LocalDiscovery(SETTINGS, () -> List.of(jvms), t -> {}, PodLookup.NONE, "node-1")
        .discover();
  }

  @ParameterizedTest
  @MethodSource("io.jvmsentinel.daemon.discovery.ProcessCgroupTest#podLayouts")
  void withoutApiAJvmInAPodIsNamedAfterItsPodUidInEveryLayout(String file) throws Exception {
    TargetConfig target = withoutApi(jvm(4242, ProcessCgroupTest.fixture(file))).get(0);

    assertThat(target.name()).isEqualTo("OrdersMain-0f2d6e3a");
    assertThat(target.tags())
        .containsEntry("pod_uid", ProcessCgroupTest.UID)
        .containsEntry("pid", "4242")
        .containsEntry("node", "node-1")
        .doesNotContainKeys("namespace", "pod", "container");
  }

  @Test
  void withoutApiAStaticPodIsNamedAfterItsManifestHash() throws Exception {
    TargetConfig target =
        withoutApi(jvm(77, ProcessCgroupTest.fixture("v2-static-pod.txt"))).get(0);

    assertThat(target.name()).isEqualTo("OrdersMain-6c1a1d3b");
    assertThat(target.tags()).containsEntry("pod_uid", "6c1a1d3b2e9f4a5b8c7d6e5f4a3b2c1d");
  }

  @Test
  void withoutApiTheNameStaysWhenTheContainerRestartsWithANewPidAndContainerId() {
    ProcessCgroup before = inPod(ProcessCgroupTest.UID);
    ProcessCgroup restarted = inPod(ProcessCgroupTest.UID, "cd".repeat(32));

    assertThat(withoutApi(jvm(4242, before)).get(0).name())
        .isEqualTo(withoutApi(jvm(5313, restarted)).get(0).name())
        .isEqualTo("OrdersMain-0f2d6e3a");
  }

  @Test
  void withoutApiTwoContainersOfOnePodWithOneMainClassKeepApartByPid() {
    ProcessCgroup app = inPod(ProcessCgroupTest.UID);
    ProcessCgroup worker = inPod(ProcessCgroupTest.UID, "cd".repeat(32));

    // The older JVM (lower pid) keeps the pod's name, as two JVMs of one service do.
    assertThat(withoutApi(jvm(900, worker), jvm(800, app)))
        .extracting(TargetConfig::name)
        .containsExactly("OrdersMain-0f2d6e3a-900", "OrdersMain-0f2d6e3a");
  }

  @Test
  void withoutApiAJvmOutsideAnyPodOrServiceKeepsItsPidNameAndHasNoPodUid() {
    TargetConfig target = withoutApi(jvm(4242, ProcessCgroup.NONE)).get(0);

    assertThat(target.name()).isEqualTo("OrdersMain-4242");
    assertThat(target.tags()).doesNotContainKey("pod_uid");
  }

  @Test
  void aSystemdServiceNamesItsJvmAndTwoJvmsOfOneServiceKeepApartByPid() {
    ProcessCgroup kafka =
        new ProcessCgroup(Optional.empty(), Optional.empty(), Optional.of("kafka"));
    List<TargetConfig> targets =
        new LocalDiscovery(
                SETTINGS,
                () -> List.of(jvm(900, kafka), jvm(800, kafka)),
                t -> {},
                PodLookup.NONE,
                "")
            .discover();

    // The older JVM (lower pid) keeps the service's name.
    assertThat(targets)
        .extracting(TargetConfig::name)
        .containsExactly("OrdersMain-kafka-900", "OrdersMain-kafka");
  }
}
