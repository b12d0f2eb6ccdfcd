package io.jvmsentinel.daemon.discovery;

import static io.jvmsentinel.daemon.discovery.MockApiServer.annotatedPod;
import static io.jvmsentinel.daemon.discovery.MockApiServer.runningPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jvmsentinel.daemon.config.ClientKey;
import io.jvmsentinel.daemon.config.JmxAddress;
import io.jvmsentinel.daemon.config.KubernetesDiscoveryConfig;
import io.jvmsentinel.daemon.config.PodCredentials;
import io.jvmsentinel.daemon.config.PodMatch;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.config.TargetTlsConfig;
import io.jvmsentinel.daemon.config.TlsTrust;
import io.jvmsentinel.daemon.testing.TestCertificates;
import io.jvmsentinel.daemon.testing.TestCertificates.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes discovery against fabric8's mock API server in CRUD mode: pods are created, changed
 * and deleted through the API, and the provider's informer sees them as it would in a cluster.
 */
class KubernetesDiscoveryTest {
  private static final Duration SEEN = Duration.ofSeconds(20);
  private static final Duration POLL = Duration.ofSeconds(5);

  @TempDir Path dir;
  private final MockApiServer api = new MockApiServer();
  private final Handed handed = new Handed();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger discoveryLog = (Logger) LoggerFactory.getLogger(KubernetesDiscovery.class);
  private KubernetesDiscovery discovery;

  @BeforeEach
  void captureLog() {
    logged.start();
    discoveryLog.addAppender(logged);
  }

  @AfterEach
  void stop() {
    if (discovery != null) {
      discovery.close();
    }
    api.close();
    discoveryLog.detachAppender(logged);
  }

  @Test
  void anAnnotatedRunningPodIsATargetAtItsIpNamedAndTaggedAfterIt() {
    start(settings(List.of(), Optional.empty(), Map.of("app", "app", "team", "team")));
    create(
        new PodBuilder(annotatedPod("shop", "orders-7d9f", "10.1.2.3", "node-a", 9010))
            .editMetadata()
            .addToLabels("app", "orders")
            .endMetadata()
            .build());

    TargetConfig target = awaitOne("shop.orders-7d9f");
    assertThat(target.address()).isEqualTo(JmxAddress.parse("10.1.2.3:9010"));
    assertThat(target.tags())
        .containsExactly(
            Map.entry("namespace", "shop"),
            Map.entry("pod", "orders-7d9f"),
            Map.entry("container", "app"),
            Map.entry("node", "node-a"),
            Map.entry("app", "orders"),
            Map.entry("team", "")); // every target has the same keys, even without the label
    assertThat(target.pollInterval()).isEqualTo(POLL);
    assertThat(target.username()).as("no credentials configured: none sent").isEmpty();
    assertThat(target.password()).isEmpty();
    assertThat(target.tls()).isEmpty();
  }

  @Test
  void theTargetAnnotationNamesItAndTheFirstPodOfANameKeepsIt() {
    start(settings(List.of(), Optional.empty(), Map.of()));
    create(
        new PodBuilder(annotatedPod("shop", "orders-7d9f", "10.1.2.3", "node-a", 9010))
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/target", "orders")
            .endMetadata()
            .build());

    TargetConfig first = awaitOne("orders");

    // A second pod claiming the name: the first by namespace.pod keeps it, the other is logged.
    create(
        new PodBuilder(annotatedPod("shop", "orders-8a1c", "10.1.2.4", "node-a", 9010))
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/target", "orders")
            .endMetadata()
            .build());
    awaitLogged("pod shop.orders-8a1c is not watched", "named orders already");
    assertThat(handed.latest()).containsExactly(first);
  }

  @Test
  void podsThatDoNotOptInOrCannotAnswerAreNoTargets() {
    start(settings(List.of(), Optional.empty(), Map.of()));
    create(runningPod("shop", "no-annotation", "10.0.0.1", "node-a").build());
    create(annotated(runningPod("shop", "scrape-false", "10.0.0.2", "node-a"), "false", "9010"));
    create(annotated(runningPod("shop", "no-port", "10.0.0.3", "node-a"), "true", null));
    create(annotated(runningPod("shop", "bad-port", "10.0.0.4", "node-a"), "true", "jmx"));
    create(
        annotated(
            runningPod("shop", "pending", "", "node-a")
                .editStatus()
                .withPhase("Pending")
                .endStatus(),
            "true",
            "9010"));
    create(
        annotated(
            runningPod("shop", "no-ip", null, "node-a").editStatus().endStatus(), "true", "9010"));
    create(
        new PodBuilder(annotatedPod("shop", "bad-name", "10.0.0.7", "node-a", 9010))
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/target", "orders/eu")
            .endMetadata()
            .build());
    // Created last: once it is a target, every pod before it has been seen.
    create(annotatedPod("shop", "good", "10.0.0.9", "node-a", 9010));

    awaitOne("shop.good");
    assertThat(warnings())
        .anySatisfy(w -> assertThat(w).contains("pod shop.no-port").contains("jmx-port is not set"))
        .anySatisfy(w -> assertThat(w).contains("pod shop.bad-port").contains("\"jmx\""))
        .anySatisfy(w -> assertThat(w).contains("pod shop.bad-name").contains("orders/eu"));
  }

  @Test
  void aPodFollowsItsIpThroughARestartAndLeavesWhenDeletedOptedOutOrStopped() {
    start(settings(List.of(), Optional.empty(), Map.of()));
    create(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010));
    await().atMost(SEEN).until(() -> address("shop.orders-0").equals(Optional.of(ip("10.0.0.1"))));

    // The IP changes in place (a sandbox recreated by the kubelet).
    Pod moved = api.client().pods().inNamespace("shop").withName("orders-0").get();
    moved.getStatus().setPodIP("10.0.0.2");
    api.client().resource(moved).update();
    await().atMost(SEEN).until(() -> address("shop.orders-0").equals(Optional.of(ip("10.0.0.2"))));

    // A StatefulSet restart: deleted, then created again with the same name and a new IP.
    api.client().pods().inNamespace("shop").withName("orders-0").delete();
    await().atMost(SEEN).until(() -> handed.latest().isEmpty());
    create(annotatedPod("shop", "orders-0", "10.0.0.3", "node-a", 9010));
    await().atMost(SEEN).until(() -> address("shop.orders-0").equals(Optional.of(ip("10.0.0.3"))));

    // A pod whose owner takes the annotation back is forgotten, and watched again when it opts in.
    Pod optedOut = api.client().pods().inNamespace("shop").withName("orders-0").get();
    optedOut.getMetadata().getAnnotations().put("jvm-sentinel.io/scrape", "false");
    api.client().resource(optedOut).update();
    await().atMost(SEEN).until(() -> handed.latest().isEmpty());
    Pod optedIn = api.client().pods().inNamespace("shop").withName("orders-0").get();
    optedIn.getMetadata().getAnnotations().put("jvm-sentinel.io/scrape", "true");
    api.client().resource(optedIn).update();
    await().atMost(SEEN).until(() -> handed.latest().size() == 1);

    // A pod that stops running (evicted, failed) is no target either.
    Pod failed = api.client().pods().inNamespace("shop").withName("orders-0").get();
    failed.getStatus().setPhase("Failed");
    api.client().resource(failed).update();
    await().atMost(SEEN).until(() -> handed.latest().isEmpty());
  }

  @Test
  void namespaceNodeAndLabelFiltersChooseThePods() {
    PodMatch shop = new PodMatch(Optional.of(Pattern.compile("shop|billing")), Map.of());
    PodMatch canary = new PodMatch(Optional.empty(), Map.of("track", Pattern.compile("canary")));
    start(
        settings(
            List.of("shop", "billing"),
            Optional.of("node-a"),
            Map.of(),
            List.of(shop),
            List.of(canary)));
    create(annotatedPod("shop", "on-a", "10.0.0.1", "node-a", 9010));
    create(annotatedPod("shop", "on-b", "10.0.0.2", "node-b", 9010));
    create(annotatedPod("other", "other-ns", "10.0.0.3", "node-a", 9010));
    create(
        new PodBuilder(annotatedPod("billing", "canary", "10.0.0.4", "node-a", 9010))
            .editMetadata()
            .addToLabels("track", "canary")
            .endMetadata()
            .build());
    create(annotatedPod("billing", "last", "10.0.0.5", "node-a", 9010));

    awaitNames("billing.last", "shop.on-a");
    // The API server filters by node: a per-node daemon does not receive the cluster's pods.
    assertThat(api.paths())
        .filteredOn(path -> path.startsWith("/api/v1/namespaces/shop/pods?"))
        .isNotEmpty()
        .allMatch(path -> path.contains("fieldSelector=spec.nodeName%3Dnode-a"));
  }

  @Test
  void theTargetsStayWhileTheApiServerIsDownAndFollowItAgainAfter() {
    start(settings(List.of(), Optional.empty(), Map.of()));
    create(annotatedPod("shop", "a", "10.0.0.1", "node-a", 9010));
    create(annotatedPod("shop", "b", "10.0.0.2", "node-a", 9010));
    await().atMost(SEEN).until(() -> handed.latest().size() == 2);
    awaitLogged("kubernetes discovery: watching pods (2 target(s))");

    api.stop();
    awaitLogged("lost the watch on pods", "keeping the 2 current target(s)");
    assertThat(handed.latest()).extracting(TargetConfig::name).containsExactly("shop.a", "shop.b");

    api.restart();
    awaitLogged("kubernetes discovery: watching pods again (2 target(s))");
    api.client().pods().inNamespace("shop").withName("a").delete();
    create(annotatedPod("shop", "c", "10.0.0.3", "node-a", 9010));
    awaitNames("shop.b", "shop.c");
    // Never an empty list in between: an outage is not every pod leaving.
    assertThat(handed.all()).noneMatch(List::isEmpty);
  }

  @Test
  void credentialsGoOnlyToAllowListedPodsEachWithItsOwnNamespacesSecret() throws Exception {
    Identity shopJmx = new TestCertificates(dir).identity("shop-jmx", "shop-jmx-pw-1");
    secret(
        "shop",
        Map.of(
            "username", "monitor",
            "password", "shop-pw\n", // as kubectl create secret --from-file keeps it
            "ca.crt", Files.readString(shopJmx.certificate())));
    secret("pay", Map.of("username", "monitor", "password", "pay-pw"));
    secret("tenant", Map.of("username", "monitor", "password", "tenant-pw"));
    start(withCredentials(fromSecret(List.of("shop", "pay"), Map.of())));
    create(annotatedPod("tenant", "thief", "10.0.9.1", "node-a", 9010));
    create(
        new PodBuilder(annotatedPod("tenant", "open", "10.0.9.2", "node-a", 9010))
            .editMetadata()
            .addToAnnotations("jvm-sentinel.io/jmx-auth", "none")
            .endMetadata()
            .build());
    create(annotatedPod("shop", "orders", "10.0.0.1", "node-a", 9010));
    create(annotatedPod("pay", "billing", "10.0.0.2", "node-a", 9010));

    awaitNames("pay.billing", "shop.orders", "tenant.open");
    TargetConfig orders = named("shop.orders");
    assertThat(orders.username()).contains("monitor");
    assertThat(orders.password()).contains(Secret.of("shop-pw"));
    TlsTrust.Pinned trust = (TlsTrust.Pinned) orders.tls().orElseThrow().trust();
    assertThat(trust.authorities()).hasSize(1);
    assertThat(trust.authorities().get(0).getSubjectX500Principal().getName())
        .isEqualTo("CN=shop-jmx");
    TargetConfig billing = named("pay.billing");
    assertThat(billing.password()).contains(Secret.of("pay-pw"));
    assertThat(billing.tls()).as("no ca.crt, no pins: plain RMI").isEmpty();
    TargetConfig open = named("tenant.open");
    assertThat(open.username()).isEmpty();
    assertThat(open.password()).isEmpty();
    awaitLogged(
        "pod tenant.thief is not watched: no entry of discovery.kubernetes.credentials allows",
        "annotate it jvm-sentinel.io/jmx-auth: none");
    assertThat(api.paths())
        .as("the Secret of a namespace off the allow-list is never read")
        .noneMatch(
            path -> path.contains("/namespaces/tenant/secrets/")) // a create POSTs to .../secrets
        .anyMatch(path -> path.contains("/namespaces/shop/secrets/jvm-sentinel-jmx"));
    assertThat(warnings()).noneMatch(line -> line.contains("pw"));
  }

  @Test
  void aClientCertificateComesFromTheSecretAndNeedsItsCaAndBothOfItsKeys() throws Exception {
    TestCertificates pki = new TestCertificates(dir);
    Identity shopJmx = pki.identity("shop-jmx", "shop-jmx-pw-1");
    Identity client = pki.identity("sentinel-client", "client-pw-1");
    String certificate = Files.readString(client.certificate());
    String key = TestCertificates.privateKeyPem(client);
    secret(
        "shop",
        Map.of(
            "username",
            "monitor",
            "password",
            "shop-pw",
            "ca.crt",
            Files.readString(shopJmx.certificate()),
            "tls.crt",
            certificate,
            "tls.key",
            key));
    secret(
        "pay",
        Map.of(
            "username", "monitor", "password", "pay-pw", "tls.crt", certificate, "tls.key", key));
    secret("audit", Map.of("username", "monitor", "password", "audit-pw", "tls.crt", certificate));
    start(withCredentials(fromSecret(List.of("shop", "pay", "audit"), Map.of())));
    create(annotatedPod("shop", "orders", "10.0.0.1", "node-a", 9010));
    create(annotatedPod("pay", "billing", "10.0.0.2", "node-a", 9010));
    create(annotatedPod("audit", "trail", "10.0.0.3", "node-a", 9010));

    awaitNames("shop.orders");
    TargetTlsConfig tls = named("shop.orders").tls().orElseThrow();
    ClientKey.InMemory presented = (ClientKey.InMemory) tls.clientKey().orElseThrow();
    assertThat(presented.key()).isEqualTo(TestCertificates.privateKey(client));
    assertThat(presented.chain().get(0).getSubjectX500Principal().getName())
        .isEqualTo("CN=sentinel-client");
    assertThat(((TlsTrust.Pinned) tls.trust()).authorities()).hasSize(1);
    awaitLogged(
        "pod pay.billing is not watched: Secret pay/jvm-sentinel-jmx has tls.crt and tls.key but"
            + " no ca.crt",
        "does not trust the JDK's default CAs");
    awaitLogged(
        "pod audit.trail is not watched: Secret audit/jvm-sentinel-jmx has 'tls.crt' but no"
            + " 'tls.key'");
    String keyBody = key.lines().skip(1).findFirst().orElseThrow();
    assertThat(warnings()).noneMatch(line -> line.contains(keyBody) || line.contains("pw"));
  }

  @Test
  void labelsNarrowTheAllowListAndGivenCredentialsCarryTheirPins() {
    String pin = "ab".repeat(32);
    PodCredentials ordersOnly =
        new PodCredentials(
            List.of("shop"),
            Map.of("app", Pattern.compile("orders")),
            Optional.empty(),
            Optional.of("monitor"),
            Optional.of(Secret.of("given-pw")),
            List.of(pin),
            false);
    start(withCredentials(ordersOnly));
    create(labelled(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010), "orders"));
    create(labelled(annotatedPod("shop", "cart-0", "10.0.0.2", "node-a", 9010), "cart"));

    awaitNames("shop.orders-0");
    TargetConfig orders = named("shop.orders-0");
    assertThat(orders.password()).contains(Secret.of("given-pw"));
    TargetTlsConfig tls = orders.tls().orElseThrow();
    assertThat(tls.trust()).isEqualTo(new TlsTrust.Pinned(List.of(), List.of(pin)));
    assertThat(tls.registry()).isFalse();
    awaitLogged("pod shop.cart-0 is not watched: no entry of discovery.kubernetes.credentials");
  }

  @Test
  void aMissingSecretIsExplainedAndThePodWatchedOnceItExists() {
    start(withCredentials(fromSecret(List.of("shop"), Map.of())));
    create(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010));
    awaitLogged(
        "pod shop.orders-0 is not watched: Secret shop/jvm-sentinel-jmx does not exist;"
            + " create it with keys username and password");
    assertThat(handed.latest()).isEmpty();

    secret("shop", Map.of("username", "monitor", "password", "late-pw"));
    await()
        .atMost(NamespaceSecrets.RETRY.plus(SEEN))
        .untilAsserted(
            () ->
                assertThat(handed.latest())
                    .extracting(TargetConfig::password)
                    .containsExactly(Optional.of(Secret.of("late-pw"))));
  }

  @Test
  void aChangedSecretReachesItsTargetWithinSecretRefresh() {
    Duration refresh = Duration.ofSeconds(1);
    KubernetesDiscoveryConfig base = withCredentials(fromSecret(List.of("shop"), Map.of()));
    start(
        new KubernetesDiscoveryConfig(
            base.apiServer(),
            base.namespaces(),
            base.node(),
            base.annotationPrefix(),
            base.include(),
            base.exclude(),
            base.labelTags(),
            base.pollInterval(),
            base.credentials(),
            base.connectTimeout(),
            base.requestTimeout(),
            refresh));
    secret("shop", Map.of("username", "monitor", "password", "pw-before"));
    create(annotatedPod("shop", "orders-0", "10.0.0.1", "node-a", 9010));
    awaitNames("shop.orders-0");
    assertThat(named("shop.orders-0").password()).contains(Secret.of("pw-before"));

    api.client()
        .resource(
            MockApiServer.secret(
                "shop", "jvm-sentinel-jmx", Map.of("username", "monitor", "password", "pw-after")))
        .update();

    // Well inside the default 60 s: the configured refresh is what reads it again.
    await()
        .atMost(refresh.plus(Duration.ofSeconds(10)))
        .untilAsserted(
            () ->
                assertThat(handed.latest())
                    .extracting(TargetConfig::password)
                    .containsExactly(Optional.of(Secret.of("pw-after"))));
  }

  @Test
  void aMissingRbacRuleIsExplainedAndTheTargetsComeOnceItIsGranted() {
    create(annotatedPod("shop", "a", "10.0.0.1", "node-a", 9010));
    api.refuse(true);
    start(settings(List.of(), Optional.empty(), Map.of()));
    awaitLogged("refuses to list or watch pods (403)", "deploy/kubernetes/discovery-rbac.yaml");
    assertThat(handed.all()).isEmpty();

    api.refuse(false);
    awaitOne("shop.a");
  }

  // ---------------------------------------------------------------------------------------------

  private void start(KubernetesDiscoveryConfig settings) {
    discovery = new KubernetesDiscovery(settings, KubernetesDiscovery.client(settings), handed);
    discovery.start();
  }

  private KubernetesDiscoveryConfig settings(
      List<String> namespaces, Optional<String> node, Map<String, String> labelTags) {
    return settings(namespaces, node, labelTags, List.of(), List.of());
  }

  private KubernetesDiscoveryConfig settings(
      List<String> namespaces,
      Optional<String> node,
      Map<String, String> labelTags,
      List<PodMatch> include,
      List<PodMatch> exclude) {
    return settings(namespaces, node, labelTags, include, exclude, List.of());
  }

  private KubernetesDiscoveryConfig settings(
      List<String> namespaces,
      Optional<String> node,
      Map<String, String> labelTags,
      List<PodMatch> include,
      List<PodMatch> exclude,
      List<PodCredentials> credentials) {
    return new KubernetesDiscoveryConfig(
        Optional.of(api.url()),
        namespaces,
        node,
        KubernetesDiscoveryConfig.DEFAULT_ANNOTATION_PREFIX,
        include,
        exclude,
        new java.util.TreeMap<>(labelTags), // sorted: the test names the order
        POLL,
        credentials,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        KubernetesDiscoveryConfig.DEFAULT_SECRET_REFRESH);
  }

  private void create(Pod pod) {
    api.client().resource(pod).create();
  }

  private KubernetesDiscoveryConfig withCredentials(PodCredentials credentials) {
    return settings(
        List.of(), Optional.empty(), Map.of(), List.of(), List.of(), List.of(credentials));
  }

  private static PodCredentials fromSecret(List<String> namespaces, Map<String, Pattern> labels) {
    return new PodCredentials(
        namespaces,
        labels,
        Optional.of("jvm-sentinel-jmx"),
        Optional.empty(),
        Optional.empty(),
        List.of(),
        true);
  }

  /** The credentials Secret {@code jvm-sentinel-jmx} of a namespace, created through the API. */
  private void secret(String namespace, Map<String, String> values) {
    api.client().resource(MockApiServer.secret(namespace, "jvm-sentinel-jmx", values)).create();
  }

  private static Pod labelled(Pod pod, String app) {
    return new PodBuilder(pod).editMetadata().addToLabels("app", app).endMetadata().build();
  }

  private TargetConfig named(String name) {
    return handed.latest().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static Pod annotated(PodBuilder pod, String scrape, String port) {
    PodBuilder builder =
        pod.editMetadata().addToAnnotations("jvm-sentinel.io/scrape", scrape).endMetadata();
    if (port != null) {
      builder.editMetadata().addToAnnotations("jvm-sentinel.io/jmx-port", port).endMetadata();
    }
    return builder.build();
  }

  private TargetConfig awaitOne(String name) {
    awaitNames(name);
    return handed.latest().get(0);
  }

  /** Waits until the last list handed over holds exactly these targets, in this order. */
  private void awaitNames(String... names) {
    await()
        .atMost(SEEN)
        .untilAsserted(
            () ->
                assertThat(handed.latest()).extracting(TargetConfig::name).containsExactly(names));
  }

  private Optional<Object> address(String name) {
    return handed.latest().stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .map(TargetConfig::address);
  }

  private static Object ip(String ip) {
    return JmxAddress.parse(ip + ":9010");
  }

  /** Waits until one line of the provider's log contains every one of {@code parts}. */
  private void awaitLogged(String... parts) {
    await()
        .atMost(SEEN)
        .untilAsserted(
            () -> assertThat(warnings()).anySatisfy(line -> assertThat(line).contains(parts)));
  }

  private List<String> warnings() {
    return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  /** What the provider handed to the daemon, in order. */
  private static final class Handed implements Consumer<List<TargetConfig>> {
    private final List<List<TargetConfig>> lists = new CopyOnWriteArrayList<>();

    @Override
    public void accept(List<TargetConfig> targets) {
      lists.add(targets);
    }

    List<TargetConfig> latest() {
      return lists.isEmpty() ? List.of() : lists.get(lists.size() - 1);
    }

    List<List<TargetConfig>> all() {
      return List.copyOf(lists);
    }
  }
}
