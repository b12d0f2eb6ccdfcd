package io.jvmsentinel.daemon.deploy;

import static io.jvmsentinel.daemon.deploy.DeployFiles.byName;
import static io.jvmsentinel.daemon.deploy.DeployFiles.deploy;
import static io.jvmsentinel.daemon.deploy.DeployFiles.documents;
import static io.jvmsentinel.daemon.deploy.DeployFiles.repo;
import static io.jvmsentinel.daemon.deploy.DeployFiles.single;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.config.HttpAuth;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.config.TargetConfig;
import io.jvmsentinel.daemon.lab.LabScenarios;
import io.jvmsentinel.daemon.target.RemoteAgentConnector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deployment files under deploy/ are checked statically here (no cluster and no Docker engine
 * in CI): the Kubernetes manifests have the structure the sidecar needs, the compose stack refers
 * to files that exist, and every example configuration loads through the daemon's real loader.
 */
class DeployManifestsTest {
  private static final String SIDECAR = "jvm-sentinel";
  private static final int METRICS_PORT = 9404;

  static List<Path> manifests() {
    return DeployFiles.filesUnder(deploy().resolve("kubernetes"), ".yaml", ".yml");
  }

  static List<Path> sidecarManifests() {
    return List.of(
        deploy().resolve("kubernetes/sidecar-jmx.yaml"),
        deploy().resolve("kubernetes/sidecar-pid.yaml"));
  }

  static List<Path> discoveryManifests() {
    return List.of(
        deploy().resolve("kubernetes/discovery-deployment.yaml"),
        deploy().resolve("kubernetes/discovery-daemonset.yaml"));
  }

  /** Every manifest that runs the daemon: the sidecars and the discovery workloads. */
  static List<Path> workloadManifests() {
    List<Path> all = new ArrayList<>(sidecarManifests());
    all.addAll(discoveryManifests());
    return all;
  }

  static List<Path> exampleConfigs() {
    List<Path> configs =
        new ArrayList<>(DeployFiles.filesUnder(deploy().resolve("config"), ".yaml"));
    configs.add(deploy().resolve("compose/sentinel.yaml"));
    return configs;
  }

  // ---------------------------------------------------------------------------------------------
  // Kubernetes

  @ParameterizedTest
  @MethodSource("manifests")
  void everyManifestDocumentHasAKindAndAName(Path file) {
    List<JsonNode> docs = documents(file);
    assertThat(docs).as(file.toString()).isNotEmpty();
    for (JsonNode doc : docs) {
      assertThat(doc.path("apiVersion").asText()).as(file + ": apiVersion").isNotEmpty();
      assertThat(doc.path("kind").asText()).as(file + ": kind").isNotEmpty();
      assertThat(doc.at("/metadata/name").asText()).as(file + ": metadata.name").isNotEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("manifests")
  void theHeaderSaysHowToCreateEverySecretThePodMounts(Path file) throws Exception {
    // Applied as the header says, a pod whose Secret volume is missing never starts.
    String text = Files.readString(file);
    String header = text.substring(0, Math.max(0, text.indexOf("\n---")));
    for (JsonNode doc : documents(file)) {
      for (JsonNode volume : doc.at("/spec/template/spec/volumes")) {
        JsonNode secret = volume.path("secret");
        if (secret.isMissingNode() || secret.path("optional").asBoolean(false)) {
          continue;
        }
        String name = secret.path("secretName").asText();
        assertThat(header)
            .as("%s: its header's commands create the Secret %s", file.getFileName(), name)
            .contains("create secret generic " + name + " ");
      }
    }
  }

  @ParameterizedTest
  @MethodSource("workloadManifests")
  void everyContainerHasResourceRequestsAndLimits(Path file) {
    for (JsonNode container : allContainers(podSpec(file))) {
      String name = file.getFileName() + " container " + container.path("name").asText();
      for (String section : List.of("requests", "limits")) {
        JsonNode resources = container.at("/resources/" + section);
        assertThat(resources.path("cpu").asText()).as(name + " " + section + ".cpu").isNotEmpty();
        assertThat(resources.path("memory").asText())
            .as(name + " " + section + ".memory")
            .isNotEmpty();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("sidecarManifests")
  void sidecarIsProbedOnHealthNeverGatesTheAppsReadinessAndServesMetrics(Path file) {
    JsonNode sidecar = sidecar(file);
    assertThat(sidecar.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
    assertThat(sidecar.at("/livenessProbe/httpGet/port").asInt()).isEqualTo(METRICS_PORT);
    assertThat(sidecar.at("/startupProbe/httpGet/path").asText()).isEqualTo("/health");
    // A pod is Ready only when all its containers are: monitoring must not gate the app.
    assertThat(sidecar.has("readinessProbe")).isFalse();
    JsonNode port = byName(sidecar.path("ports"), "metrics").orElseThrow();
    assertThat(port.path("containerPort").asInt()).isEqualTo(METRICS_PORT);
  }

  @ParameterizedTest
  @MethodSource("sidecarManifests")
  void theSidecarPodsMountNoServiceAccountToken(Path file) {
    // Nothing in them calls the Kubernetes API; a token would only be there to be stolen.
    assertThat(podSpec(file).path("automountServiceAccountToken").asBoolean(true)).isFalse();
  }

  @ParameterizedTest
  @MethodSource("workloadManifests")
  void everyContainerIsNonRootWithAReadOnlyRootAndNoCapabilities(Path file) {
    JsonNode pod = podSpec(file);
    for (JsonNode container : allContainers(pod)) {
      String name = file.getFileName() + " container " + container.path("name").asText();
      JsonNode security = container.path("securityContext");
      boolean nonRoot =
          security.path("runAsNonRoot").asBoolean(false)
              || pod.at("/securityContext/runAsNonRoot").asBoolean(false);
      assertThat(nonRoot).as(name + " runAsNonRoot").isTrue();
      assertThat(security.path("readOnlyRootFilesystem").asBoolean(false))
          .as(name + " readOnlyRootFilesystem")
          .isTrue();
      assertThat(security.has("allowPrivilegeEscalation")).as(name).isTrue();
      assertThat(security.path("allowPrivilegeEscalation").asBoolean(true))
          .as(name + " allowPrivilegeEscalation")
          .isFalse();
      assertThat(texts(security.at("/capabilities/drop"))).as(name + " drops").contains("ALL");
      assertThat(texts(security.at("/capabilities/add"))).as(name + " adds").isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("workloadManifests")
  void sidecarWritesOnlyToATmpEmptyDir(Path file) {
    JsonNode pod = podSpec(file);
    JsonNode tmp =
        stream(sidecar(file).path("volumeMounts"))
            .filter(m -> m.path("mountPath").asText().equals("/tmp"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(file + ": the sidecar mounts nothing at /tmp"));
    JsonNode volume = byName(pod.path("volumes"), tmp.path("name").asText()).orElseThrow();
    assertThat(volume.has("emptyDir")).as(file + ": /tmp is an emptyDir").isTrue();
    assertThat(volume.at("/emptyDir/sizeLimit").asText()).as("sizeLimit").isNotEmpty();
  }

  @Test
  void jmxCredentialsComeFromASecretNeverFromTheDeployment() throws Exception {
    Path file = deploy().resolve("kubernetes/sidecar-jmx.yaml");
    JsonNode deployment = only(file, "Deployment");
    JsonNode pod = deployment.at("/spec/template/spec");
    // No literal secret anywhere in the Deployment: no env value holding a password, and no
    // variable that looks like a credential set with a plain value.
    for (JsonNode container : allContainers(pod)) {
      for (JsonNode env : container.path("env")) {
        String name = env.path("name").asText();
        String value = env.path("value").asText("");
        assertThat(value).as(name).doesNotContainIgnoringCase("password=");
        if (name.matches("(?i).*(PASSWORD|SECRET|TOKEN|KEY).*")) {
          assertThat(env.has("value")).as(name + " must come from valueFrom").isFalse();
        }
      }
    }
    assertThat(Files.readString(file)).doesNotContain("CHANGE-ME");

    // The app's JMX password and access files live in a volume filled from the Secret.
    JsonNode app = byName(pod.path("containers"), "orders").orElseThrow();
    String options =
        byName(app.path("env"), "JAVA_TOOL_OPTIONS").orElseThrow().get("value").asText();
    for (String property : List.of("password.file", "access.file")) {
      Matcher m = Pattern.compile("jmxremote\\." + property + "=(\\S+)").matcher(options);
      assertThat(m.find()).as(property).isTrue();
      JsonNode volume = volumeHolding(pod, app, m.group(1));
      assertThat(volume.has("emptyDir")).as(property + " volume").isTrue();
      assertThat(volume.at("/emptyDir/medium").asText()).isEqualTo("Memory");
    }
    assertThat(options)
        .contains("-Dcom.sun.management.jmxremote.authenticate=true")
        .contains("-Dcom.sun.management.jmxremote.host=127.0.0.1")
        .contains("-Djava.rmi.server.hostname=127.0.0.1");
    // ... filled by an init container that reads the Secret.
    JsonNode init = pod.path("initContainers").get(0);
    assertThat(init).isNotNull();
    boolean readsSecret =
        stream(init.path("volumeMounts"))
            .map(m -> byName(pod.path("volumes"), m.path("name").asText()).orElseThrow())
            .anyMatch(v -> v.at("/secret/secretName").asText().equals("orders-jmx"));
    assertThat(readsSecret).as("init container mounts the orders-jmx Secret").isTrue();

    // The daemon's password file (from the ConfigMap's config) is a key of the same Secret.
    JsonNode sidecar = sidecar(file);
    String config = sidecarConfig(file, sidecar);
    List<String> passwordFiles =
        DeployFiles.valuesOfKeysEndingWith(DeployFiles.YAML.readTree(config), "passwordFile");
    assertThat(passwordFiles).isNotEmpty();
    for (String passwordFile : passwordFiles) {
      JsonNode volume = volumeHolding(pod, sidecar, passwordFile);
      assertThat(volume.at("/secret/secretName").asText()).isEqualTo("orders-jmx");
      String key = Path.of(passwordFile).getFileName().toString();
      assertThat(texts(volume.at("/secret/items"), "path")).contains(key);
    }
  }

  @ParameterizedTest
  @MethodSource("sidecarManifests")
  void sidecarTellsTheDaemonTheAppsPodIdentity(Path file) {
    Map<String, String> env = DeployFiles.environment(sidecar(file));
    assertThat(env)
        .containsEntry("JVM_SENTINEL_POD_NAMESPACE", "shop")
        .containsEntry("JVM_SENTINEL_POD_NAME", "orders-7d9f8-x2k4p")
        .containsEntry("JVM_SENTINEL_NODE_NAME", "node-1");
    // The container tag names the app's container, not the sidecar's.
    List<String> apps =
        stream(podSpec(file).path("containers"))
            .map(container -> container.path("name").asText())
            .filter(name -> !name.equals(SIDECAR))
            .toList();
    assertThat(apps).contains(env.get("JVM_SENTINEL_CONTAINER_NAME"));
  }

  @Test
  void nodeAgentTellsTheDaemonItsNode() {
    JsonNode agent = sidecar(deploy().resolve("kubernetes/node-agent-daemonset.yaml"));
    assertThat(DeployFiles.environment(agent)).containsEntry("JVM_SENTINEL_NODE_NAME", "node-1");
  }

  @Test
  void configMapConfigurationLoads(@TempDir Path dir) throws Exception {
    Path file = deploy().resolve("kubernetes/sidecar-jmx.yaml");
    JsonNode sidecar = sidecar(file);
    SentinelConfig config =
        DeployFiles.loadExample(
            sidecarConfig(file, sidecar), "sentinel.yaml", dir, DeployFiles.environment(sidecar));
    // Named after the pod, tagged with its identity: every replica is a target of its own.
    assertThat(config.targets())
        .extracting(TargetConfig::name)
        .containsExactly("orders-7d9f8-x2k4p");
    assertThat(config.targets().get(0).tags())
        .containsEntry("namespace", "shop")
        .containsEntry("pod", "orders-7d9f8-x2k4p")
        .containsEntry("container", "orders")
        .containsEntry("node", "node-1")
        .containsEntry("app", "orders");
    assertThat(config.targets().get(0).password()).isPresent();
    assertThat(config.http().toString()).contains(String.valueOf(METRICS_PORT));
  }

  @Test
  void secretExampleHoldsOnlyPlaceholders() {
    JsonNode secret = only(deploy().resolve("kubernetes/secret-example.yaml"), "Secret");
    JsonNode data = secret.path("stringData");
    assertThat(data.fieldNames())
        .toIterable()
        .containsExactlyInAnyOrder("jmxremote.password", "jmxremote.access", "monitor-password");
    assertThat(data.path("monitor-password").asText()).isEqualTo("CHANGE-ME");
    assertThat(data.path("jmxremote.password").asText()).endsWith(" CHANGE-ME");
  }

  @Test
  void pidVariantSharesTheProcessNamespaceAndAttachesByPid() {
    Path file = deploy().resolve("kubernetes/sidecar-pid.yaml");
    JsonNode pod = podSpec(file);
    assertThat(pod.path("shareProcessNamespace").asBoolean(false)).isTrue();
    JsonNode sidecar = sidecar(file);
    List<String> args = texts(sidecar.path("args"));
    int pid = args.indexOf("--pid");
    assertThat(pid).as("args contain --pid").isGreaterThanOrEqualTo(0);
    assertThat(args.get(pid + 1)).isEqualTo("{pid}");
    assertThat(args).containsSubsequence("-jar", "/app/jvm-sentinel.jar", "run", "--pid");
    // find-pid.sh puts the pid in place of {pid}; the image ships it at that path.
    assertThat(texts(sidecar.path("command"))).containsExactly("/app/bin/find-pid.sh");
    assertThat(deploy().resolve("kubernetes/find-pid.sh")).isExecutable();
    assertThat(dockerfile()).contains("COPY --chmod=0555 deploy/kubernetes/find-pid.sh /app/bin/");

    // The match must find the app's JVM by its command line.
    JsonNode app = byName(pod.path("containers"), "orders").orElseThrow();
    String match =
        byName(sidecar.path("env"), "JVM_SENTINEL_PID_MATCH").orElseThrow().get("value").asText();
    assertThat(String.join(" ", texts(app.path("command")))).contains(match);

    // Attach needs one user and group for both containers. The daemon reaches the app's /tmp
    // through /proc/<pid>/root/tmp, so its own state (chunks, snapshots) is in a /tmp the app
    // cannot read, and the app cannot attach to the daemon's JVM.
    for (String id : List.of("runAsUser", "runAsGroup")) {
      assertThat(effective(pod, app, id)).as(id).isPresent().isEqualTo(effective(pod, sidecar, id));
    }
    assertThat(mountAt(app, "/tmp")).isNotEqualTo(mountAt(sidecar, "/tmp"));
    assertThat(args).contains("-XX:+DisableAttachMechanism");
  }

  @ParameterizedTest
  @MethodSource("sidecarManifests")
  void serviceAndServiceMonitorSelectThePodOnThePortNamedMetrics(Path file) {
    JsonNode podLabels = only(file, "Deployment").at("/spec/template/metadata/labels");
    JsonNode service = only(file, "Service");
    assertThat(contains(podLabels, service.at("/spec/selector")))
        .as("Service selects the pod")
        .isTrue();
    JsonNode port = byName(service.at("/spec/ports"), "metrics").orElseThrow();
    assertThat(port.path("port").asInt()).isEqualTo(METRICS_PORT);
    assertThat(port.path("targetPort").asText()).isIn("metrics", String.valueOf(METRICS_PORT));

    JsonNode monitor = only(file, "ServiceMonitor");
    assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(contains(service.at("/metadata/labels"), monitor.at("/spec/selector/matchLabels")))
        .as("ServiceMonitor selects the Service")
        .isTrue();
    assertThat(texts(monitor.at("/spec/endpoints"), "port")).containsExactly("metrics");
    // The series carry the app's container, not the sidecar's: the scrape must keep them.
    assertThat(monitor.at("/spec/endpoints/0/honorLabels").asBoolean())
        .as("ServiceMonitor honorLabels")
        .isTrue();
    // The alert rules' "sentinel down" expressions match jobs named like .*jvm-sentinel.*; a
    // ServiceMonitor's job is the Service's name.
    assertThat(service.at("/metadata/name").asText()).contains("jvm-sentinel");

    JsonNode annotations = only(file, "Deployment").at("/spec/template/metadata/annotations");
    assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
    assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo("9404");
  }

  // ---------------------------------------------------------------------------------------------
  // Kubernetes discovery

  @ParameterizedTest
  @ValueSource(strings = {"discovery-rbac.yaml", "discovery-rbac-namespaced.yaml"})
  void discoveryMayOnlyGetListAndWatchPods(String name) {
    Path file = deploy().resolve("kubernetes/" + name);
    List<JsonNode> roles =
        documents(file).stream().filter(d -> d.path("kind").asText().endsWith("Role")).toList();
    assertThat(roles).as(name).hasSize(1);
    JsonNode rules = roles.get(0).path("rules");
    assertThat(rules).as(name + " rules").hasSize(1);
    assertThat(texts(rules.get(0).path("apiGroups"))).containsExactly("");
    assertThat(texts(rules.get(0).path("resources"))).containsExactly("pods");
    assertThat(texts(rules.get(0).path("verbs"))).containsExactlyInAnyOrder("get", "list", "watch");
    JsonNode binding =
        documents(file).stream()
            .filter(d -> d.path("kind").asText().endsWith("RoleBinding"))
            .findFirst()
            .orElseThrow();
    assertThat(binding.at("/roleRef/kind").asText()).isEqualTo(roles.get(0).path("kind").asText());
    assertThat(binding.at("/roleRef/name").asText())
        .isEqualTo(roles.get(0).at("/metadata/name").asText());
    JsonNode account = only(file, "ServiceAccount");
    assertThat(binding.at("/subjects/0/kind").asText()).isEqualTo("ServiceAccount");
    assertThat(binding.at("/subjects/0/name").asText())
        .isEqualTo(account.at("/metadata/name").asText());
    assertThat(binding.at("/subjects/0/namespace").asText())
        .isEqualTo(account.at("/metadata/namespace").asText());
  }

  @ParameterizedTest
  @MethodSource("discoveryManifests")
  void discoveryWorkloadsRunAsTheirServiceAccountAndTheirConfigurationLoads(
      Path file, @TempDir Path dir) throws Exception {
    JsonNode account = only(deploy().resolve("kubernetes/discovery-rbac.yaml"), "ServiceAccount");
    JsonNode pod = podSpec(file);
    assertThat(pod.path("serviceAccountName").asText())
        .isEqualTo(account.at("/metadata/name").asText());
    JsonNode daemon = sidecar(file);
    // One unreachable JVM must not take the daemon of the whole fleet out of its Service.
    assertThat(daemon.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/health");
    Map<String, String> env = new HashMap<>();
    byName(daemon.path("env"), "NODE_NAME")
        .ifPresent(
            node -> {
              assertThat(node.at("/valueFrom/fieldRef/fieldPath").asText())
                  .isEqualTo("spec.nodeName");
              env.put("NODE_NAME", "node-7");
            });
    SentinelConfig config =
        DeployFiles.loadExample(sidecarConfig(file, daemon), "sentinel.yaml", dir, env);
    assertThat(config.kubernetesDiscovery()).isPresent();
    assertThat(config.kubernetesDiscovery().get().credentials()).isNotEmpty();
    assertThat(config.kubernetesDiscovery().get().node())
        .isEqualTo(Optional.ofNullable(env.get("NODE_NAME")));
    for (String passwordFile :
        DeployFiles.valuesOfKeysEndingWith(
            DeployFiles.YAML.readTree(sidecarConfig(file, daemon)), "passwordFile")) {
      assertThat(volumeHolding(pod, daemon, passwordFile).at("/secret/secretName").asText())
          .isEqualTo("jvm-sentinel-jmx");
    }
  }

  /**
   * Credentials go only where the configuration allows them, and the RBAC matches: get on the named
   * Secret in exactly the namespaces listed under credentials, nothing else.
   */
  @ParameterizedTest
  @MethodSource("discoveryManifests")
  void discoveryReadsOnlyTheCredentialsSecretsOfTheAllowedNamespaces(Path file) throws Exception {
    JsonNode kubernetes =
        DeployFiles.YAML.readTree(sidecarConfig(file, sidecar(file))).at("/discovery/kubernetes");
    assertThat(kubernetes.has("username")).as("no password for every pod").isFalse();
    Map<String, String> allowed = new HashMap<>();
    for (JsonNode entry : kubernetes.path("credentials")) {
      for (JsonNode namespace : entry.path("namespaces")) {
        allowed.put(namespace.asText(), entry.path("secret").asText());
      }
    }
    assertThat(allowed).isNotEmpty();
    Path rbac = deploy().resolve("kubernetes/discovery-credentials-rbac.yaml");
    List<JsonNode> roles =
        documents(rbac).stream().filter(d -> d.path("kind").asText().equals("Role")).toList();
    Map<String, String> granted = new HashMap<>();
    for (JsonNode role : roles) {
      JsonNode rules = role.path("rules");
      assertThat(rules).hasSize(1);
      assertThat(texts(rules.get(0).path("resources"))).containsExactly("secrets");
      assertThat(texts(rules.get(0).path("verbs"))).containsExactly("get");
      assertThat(texts(rules.get(0).path("resourceNames"))).hasSize(1);
      granted.put(
          role.at("/metadata/namespace").asText(),
          texts(rules.get(0).path("resourceNames")).get(0));
    }
    assertThat(granted).isEqualTo(allowed);
    JsonNode account = only(deploy().resolve("kubernetes/discovery-rbac.yaml"), "ServiceAccount");
    assertThat(
            documents(rbac).stream()
                .filter(d -> d.path("kind").asText().equals("RoleBinding"))
                .toList())
        .hasSize(roles.size())
        .allSatisfy(
            binding ->
                assertThat(binding.at("/subjects/0/name").asText())
                    .isEqualTo(account.at("/metadata/name").asText()));
  }

  static List<Path> clusterWideManifests() {
    List<Path> all = new ArrayList<>(discoveryManifests());
    all.add(deploy().resolve("kubernetes/node-agent-daemonset.yaml"));
    return all;
  }

  /**
   * The daemons that see many apps (the node agent, discovery) serve their API, status page and
   * snapshots only with the bearer token of their own Secret; the probes stay open and /metrics is
   * not opened.
   */
  @ParameterizedTest
  @MethodSource("clusterWideManifests")
  void clusterWideDaemonsRequireABearerTokenFromTheirOwnSecret(Path file, @TempDir Path dir)
      throws Exception {
    JsonNode pod = podSpec(file);
    JsonNode daemon = sidecar(file);
    String yaml = sidecarConfig(file, daemon);
    SentinelConfig config =
        DeployFiles.loadExample(yaml, "sentinel.yaml", dir, Map.of("NODE_NAME", "node-7"));
    assertThat(config.http().auth()).isInstanceOf(HttpAuth.Bearer.class);
    assertThat(config.http().openMetrics()).isFalse();
    List<String> tokenFiles =
        DeployFiles.valuesOfKeysEndingWith(DeployFiles.YAML.readTree(yaml), "tokenFile");
    assertThat(tokenFiles).hasSize(1);
    assertThat(volumeHolding(pod, daemon, tokenFiles.get(0)).at("/secret/secretName").asText())
        .isEqualTo("jvm-sentinel-http");
    assertThat(daemon.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
  }

  /**
   * The JMX agents the node agent starts listen on ports of RemoteAgentConnector's range: the
   * policy admits the node agent's pods (by the labels and namespace its manifest gives them) to
   * that range only, and leaves every other port as it was.
   */
  @Test
  void theNetworkPolicyAdmitsOnlyTheNodeAgentToTheAgentPortRange() throws Exception {
    JsonNode policy =
        only(deploy().resolve("kubernetes/node-agent-networkpolicy.yaml"), "NetworkPolicy");
    assertThat(policy.at("/spec/podSelector").isEmpty()).isTrue();
    JsonNode rules = policy.at("/spec/ingress");
    assertThat(rules).hasSize(2);
    JsonNode agentRule = rules.get(1);
    int first = RemoteAgentConnector.FIRST_PORT;
    int last = RemoteAgentConnector.FIRST_PORT + RemoteAgentConnector.PORTS - 1;
    assertThat(agentRule.at("/ports/0/port").asInt()).isEqualTo(first);
    assertThat(agentRule.at("/ports/0/endPort").asInt()).isEqualTo(last);
    JsonNode from = agentRule.at("/from/0");
    JsonNode nodeAgent =
        only(deploy().resolve("kubernetes/node-agent-daemonset.yaml"), "DaemonSet");
    assertThat(
            contains(
                nodeAgent.at("/spec/template/metadata/labels"),
                from.at("/podSelector/matchLabels")))
        .isTrue();
    String header = Files.readString(deploy().resolve("kubernetes/node-agent-daemonset.yaml"));
    String namespace =
        from.at("/namespaceSelector/matchLabels").path("kubernetes.io/metadata.name").asText();
    assertThat(header).contains("kubectl create namespace " + namespace);
    // Every other TCP port stays open to all, as without the policy; nothing else reaches the
    // range.
    JsonNode others = rules.get(0);
    assertThat(others.has("from")).isFalse();
    assertThat(others.at("/ports/0/endPort").asInt()).isEqualTo(first - 1);
    assertThat(others.at("/ports/1/port").asInt()).isEqualTo(last + 1);
    assertThat(others.at("/ports/1/endPort").asInt()).isEqualTo(65535);
  }

  @Test
  void theDaemonSetVariantWatchesOnlyItsNode() {
    Path file = deploy().resolve("kubernetes/discovery-daemonset.yaml");
    assertThat(sidecarConfig(file, sidecar(file))).contains("node: ${NODE_NAME}");
  }

  // ---------------------------------------------------------------------------------------------
  // Example configurations

  @ParameterizedTest
  @MethodSource("exampleConfigs")
  void exampleConfigurationLoadsThroughTheRealLoader(Path file, @TempDir Path dir)
      throws Exception {
    SentinelConfig config =
        DeployFiles.loadExample(Files.readString(file), file.getFileName().toString(), dir);
    assertThat(!config.targets().isEmpty() || config.kubernetesDiscovery().isPresent())
        .as(file + ": targets or discovery")
        .isTrue();
  }

  @Test
  void alertingExampleSetsEverySinkAndDetectionOverrides(@TempDir Path dir) throws Exception {
    Path file = deploy().resolve("config/with-alerting.yaml");
    SentinelConfig config = DeployFiles.loadExample(Files.readString(file), "a.yaml", dir);
    assertThat(config.alerts().alertmanager()).isPresent();
    assertThat(config.alerts().slack()).isPresent();
    assertThat(config.alerts().pagerduty()).isPresent();
    assertThat(config.detection().rules()).containsKey("ThreadStorm");
    assertThat(config.detection().targets()).containsKey("checkout");
    assertThat(config.detection().disabled()).isNotEmpty();
  }

  @Test
  void exampleConfigurationsHoldNoSecrets() throws Exception {
    for (Path file : exampleConfigs()) {
      JsonNode tree = DeployFiles.YAML.readTree(file.toFile());
      assertThat(DeployFiles.valuesOfKeysEndingWith(tree, "password"))
          .as(file.toString())
          .isEmpty();
      assertThat(Files.readString(file)).as(file.toString()).doesNotContain("hooks.slack.com");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Compose

  @Test
  void composeStackHasEveryServiceAndItsFilesExist() throws Exception {
    Path compose = deploy().resolve("compose/docker-compose.yml");
    Path dir = compose.getParent();
    JsonNode services = single(compose).path("services");
    assertThat(services.fieldNames())
        .toIterable()
        .contains("lab", "sentinel", "prometheus", "alertmanager", "grafana");

    // Provided by other parts of the repository (alert rules, dashboards); mounted when present.
    Set<Path> elsewhere =
        Set.of(repo().resolve("alerts/prometheus"), repo().resolve("dashboards/grafana"));
    for (Map.Entry<String, JsonNode> service : services.properties()) {
      JsonNode build = service.getValue().path("build");
      if (!build.isMissingNode()) {
        Path context = dir.resolve(build.path("context").asText()).normalize();
        assertThat(context).isEqualTo(repo());
        assertThat(context.resolve(build.path("dockerfile").asText())).isRegularFile();
      }
      for (JsonNode volume : service.getValue().path("volumes")) {
        if (!volume.isTextual()) {
          continue; // long syntax: tmpfs
        }
        String source = volume.asText().split(":")[0];
        if (!source.startsWith(".")) {
          continue; // a named volume
        }
        Path path = dir.resolve(source).normalize();
        assertThat(path.startsWith(repo())).as(service.getKey() + " mounts " + source).isTrue();
        if (!elsewhere.contains(path)) {
          assertThat(path).as(service.getKey() + " mounts " + source).exists();
        }
      }
    }

    // The daemon's configuration is mounted where JVM_SENTINEL_CONFIG points.
    JsonNode sentinel = services.path("sentinel");
    String configPath = sentinel.at("/environment/JVM_SENTINEL_CONFIG").asText();
    assertThat(texts(sentinel.path("volumes"))).contains("./sentinel.yaml:" + configPath + ":ro");
    assertThat(sentinel.path("read_only").asBoolean(false)).isTrue();
    assertThat(texts(sentinel.path("cap_drop"))).contains("ALL");
    assertThat(sentinel.path("build").has("target")).as("the default (runtime) stage").isFalse();
    assertThat(services.at("/lab/build/target").asText()).isEqualTo("lab");
    // The lab plays mixed with the flags demo gives it (a bounded heap for its gc-pressure phase).
    assertThat(services.at("/lab/command/0").asText()).isEqualTo("${LAB_SCENARIO:-mixed}");
    assertThat(services.at("/lab/environment/JAVA_TOOL_OPTIONS").asText())
        .startsWith(
            "${LAB_JVM_FLAGS:-" + String.join(" ", LabScenarios.jvmFlags("mixed", 25)) + "}");
  }

  @Test
  void prometheusScrapesTheSidecarAndAlertmanagerAndGrafanaPointAtTheStack() {
    Path dir = deploy().resolve("compose");
    JsonNode prometheus = single(dir.resolve("prometheus.yml"));
    JsonNode job = byNameField(prometheus.path("scrape_configs"), "job_name", "jvm-sentinel");
    assertThat(texts(job.at("/static_configs/0/targets"))).containsExactly("sentinel:9404");
    assertThat(texts(prometheus.at("/alerting/alertmanagers/0/static_configs/0/targets")))
        .containsExactly("alertmanager:9093");
    assertThat(texts(prometheus.path("rule_files")))
        .containsExactly("/etc/prometheus/rules/jvm-sentinel-metrics.rules.yml");

    JsonNode alertmanager = single(dir.resolve("alertmanager.yml"));
    String receiver = alertmanager.at("/route/receiver").asText();
    assertThat(texts(alertmanager.path("receivers"), "name")).contains(receiver);

    JsonNode datasource =
        single(dir.resolve("grafana/provisioning/datasources/prometheus.yml")).at("/datasources/0");
    assertThat(datasource.path("url").asText()).isEqualTo("http://prometheus:9090");
    JsonNode provider =
        single(dir.resolve("grafana/provisioning/dashboards/jvm-sentinel.yml")).at("/providers/0");
    assertThat(provider.at("/options/path").asText()).isEqualTo("/etc/dashboards");
  }

  // ---------------------------------------------------------------------------------------------
  // Dockerfile

  @Test
  void dockerfileIsMultiStageNonRootAndServesOn9404() throws Exception {
    String dockerfile = dockerfile();
    List<String> from = lines(dockerfile, "FROM ");
    assertThat(from).hasSizeGreaterThanOrEqualTo(2);
    assertThat(from.get(0)).contains(" AS build");
    assertThat(from.get(from.size() - 1))
        .as("the default stage is the last")
        .contains(" AS runtime");
    String runtime = dockerfile.substring(dockerfile.lastIndexOf("\nFROM "));
    assertThat(lines(runtime, "USER ")).singleElement().asString().matches("USER \\d+(:\\d+)?");
    assertThat(lines(runtime, "EXPOSE ")).containsExactly("EXPOSE 9404");
    assertThat(lines(runtime, "HEALTHCHECK ")).hasSize(1);
    assertThat(lines(runtime, "ENTRYPOINT "))
        .singleElement()
        .asString()
        .contains("\"-jar\", \"/app/jvm-sentinel.jar\"")
        .contains("\"-XX:+DisableAttachMechanism\"");
    assertThat(lines(runtime, "CMD ")).containsExactly("CMD [\"run\"]");
    // Found through ServiceLoader only, so jdeps does not list them; without them no jmx: target
    // can connect.
    assertThat(dockerfile).contains("java.management.rmi").contains("jdk.naming.rmi");
    // Every file the Dockerfile copies from the context exists and passes the .dockerignore.
    String ignore = Files.readString(deploy().resolve("Dockerfile.dockerignore"));
    Matcher copy =
        Pattern.compile("(?m)^COPY (?:--chmod=\\S+ )?(deploy/\\S+) ").matcher(dockerfile);
    int copied = 0;
    while (copy.find()) {
      assertThat(repo().resolve(copy.group(1))).isRegularFile();
      assertThat(ignore).contains("!" + copy.group(1));
      copied++;
    }
    assertThat(copied).isEqualTo(2);
  }

  /** Every manifest with a configuration file: the daemon, with a sidecar-jmx.yaml config. */
  static List<Path> configuredDaemons() {
    return List.of(
        deploy().resolve("kubernetes/sidecar-jmx.yaml"),
        deploy().resolve("kubernetes/discovery-deployment.yaml"),
        deploy().resolve("kubernetes/discovery-daemonset.yaml"),
        deploy().resolve("kubernetes/node-agent-daemonset.yaml"));
  }

  @ParameterizedTest
  @MethodSource("configuredDaemons")
  void theDiskBudgetFitsTheDaemonsTmpEmptyDir(Path file) {
    JsonNode daemon = sidecar(file);
    TmpBudget.check(
        file.getFileName().toString(), podSpec(file), daemon, sidecarConfig(file, daemon));
  }

  @Test
  void nodeAgentWatchesTheNodesJvmsWithTheLeastPrivilegeAttachNeeds(@TempDir Path dir)
      throws Exception {
    Path file = deploy().resolve("kubernetes/node-agent-daemonset.yaml");
    String config = NodeAgentPod.check(only(file, "DaemonSet"), only(file, "ConfigMap"));
    NodeAgentPod.checkConfig(DeployFiles.loadExample(config, "sentinel.yaml", dir));
    assertThat(only(file, "ServiceAccount").path("automountServiceAccountToken").asBoolean(true))
        .isFalse();
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private static String dockerfile() {
    try {
      return Files.readString(deploy().resolve("Dockerfile"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<String> lines(String text, String prefix) {
    return text.lines().filter(l -> l.startsWith(prefix)).toList();
  }

  private static JsonNode only(Path file, String kind) {
    List<JsonNode> matching =
        documents(file).stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    assertThat(matching).as(file.getFileName() + ": one " + kind).hasSize(1);
    return matching.get(0);
  }

  private static JsonNode podSpec(Path file) {
    List<JsonNode> workloads =
        documents(file).stream()
            .filter(d -> List.of("Deployment", "DaemonSet").contains(d.path("kind").asText()))
            .toList();
    assertThat(workloads).as(file.getFileName() + ": one Deployment or DaemonSet").hasSize(1);
    return workloads.get(0).at("/spec/template/spec");
  }

  private static JsonNode sidecar(Path file) {
    return byName(podSpec(file).path("containers"), SIDECAR)
        .orElseThrow(() -> new AssertionError(file + ": no container named " + SIDECAR));
  }

  private static List<JsonNode> allContainers(JsonNode pod) {
    List<JsonNode> all = new ArrayList<>();
    pod.path("initContainers").forEach(all::add);
    pod.path("containers").forEach(all::add);
    assertThat(all).isNotEmpty();
    return all;
  }

  /** The daemon configuration the sidecar reads: the ConfigMap key JVM_SENTINEL_CONFIG names. */
  private static String sidecarConfig(Path file, JsonNode sidecar) {
    String path =
        byName(sidecar.path("env"), "JVM_SENTINEL_CONFIG").orElseThrow().get("value").asText();
    JsonNode pod = podSpec(file);
    JsonNode volume = volumeHolding(pod, sidecar, path);
    String configMap = volume.at("/configMap/name").asText();
    JsonNode map = only(file, "ConfigMap");
    assertThat(map.at("/metadata/name").asText()).isEqualTo(configMap);
    String key = Path.of(path).getFileName().toString();
    assertThat(map.at("/data").has(key)).as("ConfigMap key " + key).isTrue();
    return map.at("/data").get(key).asText();
  }

  /** The pod volume mounted in {@code container} at a directory that holds {@code path}. */
  private static JsonNode volumeHolding(JsonNode pod, JsonNode container, String path) {
    JsonNode mount =
        stream(container.path("volumeMounts"))
            .filter(m -> Path.of(path).startsWith(Path.of(m.path("mountPath").asText())))
            .findFirst()
            .orElseThrow(() -> new AssertionError("nothing is mounted to hold " + path));
    return byName(pod.path("volumes"), mount.path("name").asText()).orElseThrow();
  }

  private static String mountAt(JsonNode container, String path) {
    return stream(container.path("volumeMounts"))
        .filter(m -> m.path("mountPath").asText().equals(path))
        .map(m -> m.path("name").asText())
        .findFirst()
        .orElseThrow(
            () -> new AssertionError(container.path("name") + " mounts nothing at " + path));
  }

  /** A securityContext field of the container, else of the pod. */
  private static Optional<String> effective(JsonNode pod, JsonNode container, String field) {
    JsonNode own = container.at("/securityContext/" + field);
    JsonNode value = own.isMissingNode() ? pod.at("/securityContext/" + field) : own;
    return value.isMissingNode() ? Optional.empty() : Optional.of(value.asText());
  }

  private static boolean contains(JsonNode labels, JsonNode selector) {
    if (!selector.isObject() || selector.isEmpty()) {
      return false;
    }
    Map<String, String> wanted = new HashMap<>();
    selector.properties().forEach(e -> wanted.put(e.getKey(), e.getValue().asText()));
    return wanted.entrySet().stream()
        .allMatch(e -> e.getValue().equals(labels.path(e.getKey()).asText(null)));
  }

  private static JsonNode byNameField(JsonNode array, String field, String value) {
    return stream(array)
        .filter(n -> value.equals(n.path(field).asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no entry with " + field + "=" + value));
  }

  private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false);
  }

  private static List<String> texts(JsonNode array) {
    return stream(array).map(JsonNode::asText).toList();
  }

  private static List<String> texts(JsonNode array, String field) {
    return stream(array).map(n -> n.path(field).asText()).toList();
  }
}
