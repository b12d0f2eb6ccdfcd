package io.jvmsentinel.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.config.HttpAuth;
import io.jvmsentinel.daemon.config.SentinelConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart deploy/helm/jvm-sentinel, judged by the real helm (lint, template) and its output
 * by .ci/validate-k8s.py: the strict Kubernetes 1.34 schemas and the Prometheus Operator's CRD
 * models. A missing tool fails: never skipped (.ci/install-test-deps installs both).
 */
class HelmChartIT {
  private static final long TIMEOUT_SECONDS = 120;
  private static final Path CHART = DeployFiles.deploy().resolve("helm/jvm-sentinel");
  // Where .ci/install-test-deps puts them: $JVM_SENTINEL_TOOLS, else $HOME/.cache/...
  private static final Path TOOLS =
      Path.of(
          System.getenv()
              .getOrDefault(
                  "JVM_SENTINEL_TOOLS",
                  System.getenv().getOrDefault("HOME", System.getProperty("user.home"))
                      + "/.cache/jvm-sentinel/tools"));

  private static final List<String> JMX_STANDALONE =
      List.of(
          "--set", "workload.enabled=true",
          "--set", "jmx.existingSecret=orders-jmx",
          "--set", "targetTags.app=orders",
          "--set", "podMonitor.enabled=true",
          "--set", "podMonitor.labels.release=prometheus",
          "--set", "prometheusRule.enabled=true");
  private static final List<String> PID_STANDALONE =
      List.of(
          "--set", "mode=pid",
          "--set", "workload.enabled=true",
          "--set", "pid.match=-jar /app/orders.jar",
          "--set", "podMonitor.enabled=true");
  private static final List<String> SNIPPET_ONLY =
      List.of("--set", "jmx.existingSecret=orders-jmx");

  // A chart that includes the sidecar names its own pod's labels for the PodMonitor.
  private static final List<String> INCLUDED_POD_SELECTOR =
      List.of("--set", "podMonitor.selector.app\\.kubernetes\\.io/name=orders");

  private static final List<String> DISCOVERY_CLUSTER =
      List.of(
          "--set", "discovery.enabled=true",
          "--set", "discovery.credentials[0].namespaces={shop,billing}",
          "--set", "discovery.credentials[0].secret=jvm-sentinel-jmx");
  private static final List<String> DISCOVERY_PER_NODE =
      List.of(
          "--set", "discovery.enabled=true",
          "--set", "discovery.kind=DaemonSet",
          "--set", "discovery.namespaces={shop,billing}");

  private static KubernetesValidator validator;

  @TempDir Path dir;

  /** Renderings a test expects valid, checked together after it in one request to the validator. */
  private final List<Path> toValidate = new ArrayList<>();

  @AfterEach
  void theRenderingsOfTheTestAreValid() {
    if (!toValidate.isEmpty()) {
      Result validation = validate(toValidate.stream().map(Path::toString).toList());
      assertThat(validation.exitCode()).as(validation.output()).isZero();
    }
  }

  @Test
  void lintsCleanInEveryMode() {
    for (List<String> values : List.of(JMX_STANDALONE, PID_STANDALONE, SNIPPET_ONLY)) {
      Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
      assertThat(lint.exitCode()).as(lint.output()).isZero();
      assertThat(lint.output()).contains("1 chart(s) linted, 0 chart(s) failed");
    }
  }

  @Test
  void rendersValidKubernetesObjectsInEveryMode() throws IOException {
    List<String> files = new ArrayList<>();
    for (List<String> values : List.of(JMX_STANDALONE, PID_STANDALONE, SNIPPET_ONLY)) {
      Path out = dir.resolve("rendered-" + files.size() + ".yaml");
      Files.writeString(out, template(values));
      files.add(out.toString());
    }
    Result validation = validate(files);
    assertThat(validation.exitCode()).as(validation.output()).isZero();
    // jmx: ConfigMap, Deployment, PodMonitor, PrometheusRule; pid: 3; snippet only: the ConfigMap.
    assertThat(validation.output()).contains("8 passed, 0 failed");
  }

  @Test
  void theValidatorRejectsWhatAClusterWouldReject() throws IOException {
    // Guards the guard: a misspelt field in a core object and in a CRD object both fail.
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(
        bad,
        template(JMX_STANDALONE)
            .replace("readOnlyRootFilesystem:", "readOnlyRootFileSystem:")
            .replace("podMetricsEndpoints:", "podMetricEndpoints:"));
    Result validation = validate(List.of(bad.toString()));
    assertThat(validation.exitCode()).isEqualTo(1);
    assertThat(validation.output())
        .contains("readOnlyRootFileSystem")
        .contains("podMetricEndpoints")
        .contains("2 passed, 2 failed");
  }

  @Test
  void thePrometheusRuleIsTheAlertsFileItself() throws IOException {
    JsonNode rule = object(template(JMX_STANDALONE), "PrometheusRule");
    // The chart's rules/ holds a symlink into alerts/prometheus/, never a copy.
    Path link = CHART.resolve("rules/metrics.rules.yml");
    assertThat(link).isSymbolicLink();
    Path target = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
    assertThat(target).startsWith(DeployFiles.repo().resolve("alerts/prometheus").normalize());
    JsonNode file = DeployFiles.single(target);
    assertThat(rule.at("/spec/groups")).isNotEmpty().isEqualTo(file.get("groups"));
    assertThat(rule.at("/metadata/labels/release").asText()).isEmpty();
  }

  @Test
  void theSidecarRunsNonRootReadOnlyWithProbesAndItsConfigLoads() throws Exception {
    String rendered = template(JMX_STANDALONE);
    JsonNode pod = object(rendered, "Deployment").at("/spec/template/spec");
    JsonNode sidecar = DeployFiles.byName(pod.get("containers"), "jvm-sentinel").orElseThrow();
    assertThat(sidecar.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
    assertThat(sidecar.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
    assertThat(sidecar.at("/securityContext/allowPrivilegeEscalation").asBoolean()).isFalse();
    // A pod is Ready only when all its containers are: the sidecar never gates the app.
    assertThat(sidecar.has("readinessProbe")).isFalse();
    assertThat(sidecar.at("/startupProbe/httpGet/path").asText()).isEqualTo("/health");
    assertThat(sidecar.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
    assertThat(sidecar.at("/securityContext/seccompProfile/type").asText())
        .isEqualTo("RuntimeDefault");
    assertThat(sidecar.at("/image").asText()).endsWith(":" + appVersion());
    assertThat(sidecar.at("/resources/limits/memory").asText()).isEqualTo("256Mi");
    JsonNode app = DeployFiles.byName(pod.get("containers"), "app").orElseThrow();
    assertThat(app.at("/env/0/value").asText())
        .contains("-Dcom.sun.management.jmxremote.port=9010")
        .contains("-Dcom.sun.management.jmxremote.host=127.0.0.1");

    // The rendered sentinel.yaml is a configuration the daemon accepts.
    String yaml = object(rendered, "ConfigMap").at("/data/sentinel.yaml").asText();
    SentinelConfig config =
        DeployFiles.loadExample(yaml, "sentinel.yaml", dir, DeployFiles.environment(sidecar));
    assertThat(config.targets())
        .singleElement()
        .satisfies(
            t -> {
              // Each replica its own target: named after its pod, with the pod's identity.
              assertThat(t.name()).isEqualTo("orders-7d9f8-x2k4p");
              assertThat(t.tags())
                  .containsEntry("namespace", "shop")
                  .containsEntry("pod", "orders-7d9f8-x2k4p")
                  .containsEntry("container", "app")
                  .containsEntry("node", "node-1");
              assertThat(t.address().toString()).contains("127.0.0.1:9010");
              assertThat(t.tags()).containsEntry("app", "orders");
            });
    TmpBudget.check("sidecar", pod, sidecar, yaml);
    assertThat(config.storage().maxDiskMb()).isEqualTo(288); // 3/4 of tmpSizeLimit 384Mi

    JsonNode pidPod = object(template(PID_STANDALONE), "Deployment").at("/spec/template/spec");
    assertThat(pidPod.get("shareProcessNamespace").asBoolean()).isTrue();
    JsonNode pidSidecar =
        DeployFiles.byName(pidPod.get("containers"), "jvm-sentinel").orElseThrow();
    assertThat(pidSidecar.at("/command/0").asText()).isEqualTo("/app/bin/find-pid.sh");
    // No JMX flags for the app in pid mode, and no empty (null) env either.
    JsonNode pidApp = DeployFiles.byName(pidPod.get("containers"), "app").orElseThrow();
    assertThat(pidApp.has("env")).as("the pid-mode app's env: %s", pidApp.get("env")).isFalse();

    // The app's container is the one the series' container label names.
    JsonNode named =
        object(
                template(concat(JMX_STANDALONE, List.of("--set", "appContainerName=orders"))),
                "Deployment")
            .at("/spec/template/spec/containers");
    assertThat(DeployFiles.byName(named, "orders")).isPresent();
    assertThat(
            DeployFiles.byName(
                    DeployFiles.byName(named, "jvm-sentinel").orElseThrow().get("env"),
                    "JVM_SENTINEL_CONTAINER_NAME")
                .orElseThrow()
                .path("value")
                .asText())
        .isEqualTo("orders");
  }

  @Test
  void aServiceChartThatIncludesTheSidecarRendersValidObjects() throws IOException {
    // deploy/helm/examples/orders, copied so that "dependency build" leaves the tree clean.
    Path example = DeployFiles.deploy().resolve("helm/examples/orders");
    Path copy = dir.resolve("orders");
    for (Path file : DeployFiles.filesUnder(example, ".yaml")) {
      Path target = copy.resolve(example.relativize(file).toString());
      Files.createDirectories(target.getParent());
      Files.writeString(
          target, Files.readString(file).replace("file://../../jvm-sentinel", "file://" + CHART));
    }
    Result build = helm(List.of("dependency", "build", copy.toString()));
    assertThat(build.exitCode()).as(build.output()).isZero();
    Path rendered = dir.resolve("orders.yaml");
    Files.writeString(rendered, template(List.of(), copy));
    Result validation = validate(List.of(rendered.toString()));
    assertThat(validation.exitCode()).as(validation.output()).isZero();
    assertThat(validation.output())
        .contains("3 passed, 0 failed"); // ConfigMap, Deployment, PodMonitor
    String output = Files.readString(rendered);
    JsonNode deployment = object(output, "Deployment");
    JsonNode pod = deployment.at("/spec/template/spec");
    assertThat(pod.get("containers"))
        .extracting(c -> c.get("name").asText())
        .containsExactly("orders", "jvm-sentinel");
    // The series' container label names the app's container, not the chart's default "app".
    JsonNode sidecar = DeployFiles.byName(pod.get("containers"), "jvm-sentinel").orElseThrow();
    assertThat(
            DeployFiles.byName(sidecar.get("env"), "JVM_SENTINEL_CONTAINER_NAME")
                .orElseThrow()
                .path("value")
                .asText())
        .isEqualTo("orders");
    // In a pod of someone else's, the sidecar covers the API token's path in its own container.
    assertCoversTheApiToken(pod, "/var/run/secrets/kubernetes.io/serviceaccount");
    assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
    // The PodMonitor selects this pod.
    JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
    object(output, "PodMonitor")
        .at("/spec/selector/matchLabels")
        .properties()
        .forEach(
            e -> assertThat(podLabels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));

    // endpointAuth.sidecar: the included templates bring the token's mount and volume, this chart
    // its Secret, and the PodMonitor sends it.
    Path secured = dir.resolve("orders-secured.yaml");
    Files.writeString(
        secured, template(List.of("--set", "jvm-sentinel.endpointAuth.sidecar=true"), copy));
    Result securedValidation = validate(List.of(secured.toString()));
    assertThat(securedValidation.exitCode()).as(securedValidation.output()).isZero();
    String securedOutput = Files.readString(secured);
    JsonNode securedPod = object(securedOutput, "Deployment").at("/spec/template/spec");
    assertThat(DeployFiles.byName(sidecarOf(securedPod).path("volumeMounts"), "http-token"))
        .isPresent();
    assertThat(
            DeployFiles.byName(securedPod.path("volumes"), "http-token")
                .orElseThrow()
                .at("/secret/secretName")
                .asText())
        .isEqualTo("orders-jvm-sentinel-http");
    assertThat(object(securedOutput, "Secret").at("/metadata/name").asText())
        .isEqualTo("orders-jvm-sentinel-http");
    assertThat(credentials(securedOutput))
        .containsExactly("authorization: Bearer orders-jvm-sentinel-http/token");
  }

  @Test
  void discoveryRendersValidRbacForPodsOnlyAndAFleetDaemonWhoseConfigLoads() throws Exception {
    for (List<String> values : List.of(DISCOVERY_CLUSTER, DISCOVERY_PER_NODE)) {
      Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
      assertThat(lint.exitCode()).as(lint.output()).isZero();
    }
    String cluster = template(DISCOVERY_CLUSTER);
    String perNode = template(DISCOVERY_PER_NODE);
    Path clusterFile = Files.writeString(dir.resolve("cluster.yaml"), cluster);
    Path perNodeFile = Files.writeString(dir.resolve("per-node.yaml"), perNode);
    Result validation = validate(List.of(clusterFile.toString(), perNodeFile.toString()));
    assertThat(validation.exitCode()).as(validation.output()).isZero();
    // Cluster-wide: ServiceAccount, ClusterRole, ClusterRoleBinding, ConfigMap, Deployment, Secret,
    // and 2 x (Role, RoleBinding) for the credentials Secrets of shop and billing.
    // Per node in two namespaces: ServiceAccount, 2 x (Role, RoleBinding), ConfigMap, DaemonSet,
    // Secret (the endpoint's token).
    assertThat(validation.output()).contains("18 passed, 0 failed");

    String account = object(cluster, "ServiceAccount").at("/metadata/name").asText();
    for (JsonNode role : objects(cluster, "ClusterRole")) {
      assertOnlyReadsPods(role);
    }
    assertThat(object(cluster, "ClusterRoleBinding").at("/subjects/0/name").asText())
        .isEqualTo(account);
    // The credentials: get on the one named Secret, only in the namespaces allowed to receive it.
    List<JsonNode> secretRoles = objects(cluster, "Role");
    assertThat(secretRoles)
        .extracting(r -> r.at("/metadata/namespace").asText())
        .containsExactly("billing", "shop");
    for (JsonNode role : secretRoles) {
      JsonNode rules = role.get("rules");
      assertThat(rules).hasSize(1);
      assertThat(rules.get(0).get("resources"))
          .extracting(JsonNode::asText)
          .containsExactly("secrets");
      assertThat(rules.get(0).get("resourceNames"))
          .extracting(JsonNode::asText)
          .containsExactly("jvm-sentinel-jmx");
      assertThat(rules.get(0).get("verbs")).extracting(JsonNode::asText).containsExactly("get");
    }
    assertThat(objects(cluster, "RoleBinding"))
        .allSatisfy(b -> assertThat(b.at("/subjects/0/name").asText()).isEqualTo(account));
    JsonNode pod = object(cluster, "Deployment").at("/spec/template/spec");
    assertThat(pod.path("serviceAccountName").asText()).isEqualTo(account);
    assertThat(objects(cluster, "ConfigMap")).hasSize(1); // not the sidecar's as well
    SentinelConfig config =
        DeployFiles.loadExample(
            object(cluster, "ConfigMap").at("/data/sentinel.yaml").asText(),
            "sentinel.yaml",
            dir.resolve("cluster"));
    assertThat(config.kubernetesDiscovery().orElseThrow().credentials()).isNotEmpty();
    assertThat(config.kubernetesDiscovery().orElseThrow().node()).isEmpty();
    TmpBudget.check(
        "discovery",
        pod,
        pod.at("/containers/0"),
        object(cluster, "ConfigMap").at("/data/sentinel.yaml").asText());

    List<JsonNode> roles = objects(perNode, "Role");
    assertThat(roles)
        .extracting(r -> r.at("/metadata/namespace").asText())
        .containsExactly("shop", "billing");
    roles.forEach(HelmChartIT::assertOnlyReadsPods);
    JsonNode daemon = object(perNode, "DaemonSet").at("/spec/template/spec/containers/0");
    JsonNode nodeName = DeployFiles.byName(daemon.get("env"), "NODE_NAME").orElseThrow();
    assertThat(nodeName.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("spec.nodeName");
    SentinelConfig perNodeConfig =
        DeployFiles.loadExample(
            object(perNode, "ConfigMap").at("/data/sentinel.yaml").asText(),
            "sentinel.yaml",
            dir.resolve("per-node"),
            java.util.Map.of("NODE_NAME", "node-7"));
    assertThat(perNodeConfig.kubernetesDiscovery().orElseThrow().node()).contains("node-7");
    assertThat(perNodeConfig.kubernetesDiscovery().orElseThrow().namespaces())
        .containsExactly("shop", "billing");
  }

  @Test
  void credentialsForANamespaceDiscoveryDoesNotWatchStopTheInstall() {
    // The daemon would refuse this configuration at start and crash-loop.
    Result result =
        helm(
            List.of(
                "template",
                "release",
                CHART.toString(),
                "--set",
                "discovery.enabled=true",
                "--set",
                "discovery.namespaces={shop}",
                "--set",
                "discovery.credentials[0].namespaces={shop,billing}",
                "--set",
                "discovery.credentials[0].secret=jvm-sentinel-jmx"));
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output())
        .contains(
            "discovery.credentials[0].namespaces has \"billing\", which discovery.namespaces"
                + " (shop) does not watch: add it there or remove it here");
  }

  @Test
  void theNativeSidecarIsARestartableInitContainerThatHoldsNothingUp() throws Exception {
    for (String mode : List.of("jmx", "pid")) {
      List<String> values =
          List.of(
              "--set", "mode=" + mode,
              "--set", "workload.enabled=true",
              "--set", "jmx.existingSecret=orders-jmx",
              "--set", "sidecar.native=true");
      Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
      assertThat(lint.exitCode()).as(lint.output()).isZero();
      String rendered = template(values);
      toValidate.add(Files.writeString(dir.resolve("native-" + mode + ".yaml"), rendered));
      JsonNode pod = object(rendered, "Deployment").at("/spec/template/spec");
      assertThat(DeployFiles.byName(pod.get("containers"), "jvm-sentinel")).isEmpty();
      JsonNode sidecar =
          DeployFiles.byName(pod.get("initContainers"), "jvm-sentinel").orElseThrow();
      assertThat(sidecar.path("restartPolicy").asText()).isEqualTo("Always");
      // The app's containers start only once a native sidecar's startup probe passed: none, and
      // no readiness probe either (a native sidecar's readiness counts for the pod's).
      assertThat(sidecar.has("startupProbe")).isFalse();
      assertThat(sidecar.has("readinessProbe")).isFalse();
      assertThat(sidecar.at("/livenessProbe/initialDelaySeconds").asInt())
          .isEqualTo(mode.equals("pid") ? 330 : 30);
    }
  }

  @Test
  void everyRenderingCarriesHelmsLabelsPullSecretsAndOnePort() throws Exception {
    List<List<String>> renderings =
        List.of(
            JMX_STANDALONE,
            PID_STANDALONE,
            DISCOVERY_CLUSTER,
            List.of("--set", "nodeAgent.enabled=true"),
            List.of("--set", "nodeAgent.enabled=true", "--set", "endpointAuth.enabled=false"));
    for (List<String> values : renderings) {
      String rendered =
          template(
              concat(
                  values,
                  List.of(
                      "--set", "port=9555",
                      "--set", "imagePullSecrets[0].name=regcred",
                      "--set", "dashboards.enabled=true")));
      // What a GitOps pipeline lints (helm template | yamllint): no trailing whitespace.
      assertThat(rendered.lines().filter(line -> line.endsWith(" ")).toList())
          .as("rendered lines with trailing spaces, %s", values)
          .isEmpty();
      Path file = Files.writeString(dir.resolve("labels.yaml"), rendered);
      for (JsonNode object : DeployFiles.documents(file)) {
        String what = object.path("kind").asText() + " " + object.at("/metadata/name").asText();
        assertThat(object.at("/metadata/labels/helm.sh~1chart").asText())
            .as(what)
            .isEqualTo("jvm-sentinel-" + appVersion());
        assertThat(object.at("/metadata/labels/app.kubernetes.io~1managed-by").asText())
            .as(what)
            .isEqualTo("Helm");
        JsonNode pod = object.at("/spec/template/spec");
        if (!pod.isMissingNode()) {
          assertThat(pod.at("/imagePullSecrets/0/name").asText()).as(what).isEqualTo("regcred");
          for (JsonNode c : pod.path("containers")) {
            if (c.path("name").asText().equals("jvm-sentinel")) {
              assertThat(c.at("/ports/0/containerPort").asInt()).as(what).isEqualTo(9555);
            }
          }
        }
        if (object.at("/data/sentinel.yaml").isTextual()) {
          JsonNode config = DeployFiles.YAML.readTree(object.at("/data/sentinel.yaml").asText());
          assertThat(config.at("/http/listen").asText()).as(what).isEqualTo("0.0.0.0:9555");
        }
      }
    }
    Result disagree =
        helm(
            concat(
                List.of("template", "release", CHART.toString()),
                concat(SNIPPET_ONLY, List.of("--set", "config.http.listen=0.0.0.0:9000"))));
    assertThat(disagree.exitCode()).isNotZero();
    assertThat(disagree.output())
        .contains("config.http.listen (0.0.0.0:9000) and port (9404) disagree");
  }

  @Test
  void withHttpTlsEveryProbeAndThePodMonitorUseHttps() throws Exception {
    List<String> https =
        List.of(
            "--set", "config.http.tls.keyStore=/var/run/secrets/http/keystore.p12",
            "--set", "config.http.tls.keyStorePasswordFile=/var/run/secrets/http/password",
            "--set", "podMonitor.enabled=true",
            "--set", "podMonitor.tlsConfig.ca.secret.name=jvm-sentinel-ca",
            "--set", "podMonitor.tlsConfig.ca.secret.key=ca.crt",
            // The key store and its password, from a Secret, in every mode's daemon container.
            "--set", "extraVolumes[0].name=http-tls",
            "--set", "extraVolumes[0].secret.secretName=jvm-sentinel-http-tls",
            "--set", "extraVolumeMounts[0].name=http-tls",
            "--set", "extraVolumeMounts[0].mountPath=/var/run/secrets/http",
            "--set", "extraVolumeMounts[0].readOnly=true");
    List<List<String>> modes =
        List.of(
            JMX_STANDALONE,
            PID_STANDALONE,
            concat(JMX_STANDALONE, List.of("--set", "sidecar.native=true")),
            DISCOVERY_CLUSTER,
            DISCOVERY_PER_NODE,
            List.of("--set", "nodeAgent.enabled=true"));
    for (List<String> mode : modes) {
      // A plain HTTP probe of an HTTPS daemon fails: the kubelet would restart it forever.
      String rendered = lintedAndValid(concat(mode, https));
      List<JsonNode> probes = new ArrayList<>();
      for (JsonNode object : objectsWithPods(rendered)) {
        JsonNode pod = object.at("/spec/template/spec");
        for (String list : List.of("containers", "initContainers")) {
          for (JsonNode c : pod.path(list)) {
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
              if (c.has(probe) && c.at("/ports/0/name").asText().equals("metrics")) {
                probes.add(c.get(probe));
              }
            }
          }
        }
      }
      for (JsonNode pod : podsOf(rendered)) {
        assertThat(DeployFiles.byName(sidecarOf(pod).path("volumeMounts"), "http-tls"))
            .as("%s", mode)
            .isPresent();
        assertThat(DeployFiles.byName(pod.path("volumes"), "http-tls")).as("%s", mode).isPresent();
      }
      assertThat(probes).as("probes, %s", mode).isNotEmpty();
      assertThat(probes)
          .as("%s", mode)
          .allSatisfy(p -> assertThat(p.at("/httpGet/scheme").asText()).isEqualTo("HTTPS"));
      JsonNode endpoint = object(rendered, "PodMonitor").at("/spec/podMetricsEndpoints/0");
      assertThat(endpoint.path("scheme").asText()).as("%s", mode).isEqualTo("https");
      assertThat(endpoint.at("/tlsConfig/ca/secret/name").asText()).isEqualTo("jvm-sentinel-ca");
    }
    // Without http.tls: plain HTTP, as the kubelet's default.
    JsonNode plain =
        object(template(JMX_STANDALONE), "Deployment").at("/spec/template/spec/containers/1");
    assertThat(plain.at("/livenessProbe/httpGet").has("scheme")).isFalse();
  }

  private static List<JsonNode> objectsWithPods(String rendered) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String kind : List.of("Deployment", "DaemonSet")) {
      out.addAll(objects(rendered, kind));
    }
    return out;
  }

  @Test
  void theNotesSayHowToReachAnEndpointThatWantsTheToken() throws IOException {
    // A fleet daemon's endpoint answers 401 without the token: the notes say where it is.
    String fleet = notes(DISCOVERY_CLUSTER);
    assertThat(fleet)
        .contains("port-forward <pod> 9404   then http://localhost:9404/")
        .contains("get secret release-jvm-sentinel-http -o jsonpath='{.data.token}' | base64 -d")
        .contains("curl -H \"Authorization: Bearer $TOKEN\" http://localhost:9404/api/v1/targets")
        .doesNotContain("The sidecar has no readiness probe");
    assertThat(
            notes(
                List.of("--set", "nodeAgent.enabled=true", "--set", "endpointAuth.enabled=false")))
        .doesNotContain("TOKEN");
    String sidecar = notes(JMX_STANDALONE);
    assertThat(sidecar).contains("The sidecar has no readiness probe").doesNotContain("TOKEN");
    assertThat(
            notes(
                concat(
                    JMX_STANDALONE,
                    List.of(
                        "--set", "config.http.tls.keyStore=/s/k.p12",
                        "--set", "config.http.tls.keyStorePasswordFile=/s/p"))))
        .contains("then https://localhost:9404/");
  }

  @Test
  void theNotesNameTheSecretThePodMonitorAuthenticatesWith() throws IOException {
    List<String> monitored = List.of("--set", "podMonitor.enabled=true");
    assertThat(notes(concat(List.of("--set", "nodeAgent.enabled=true"), monitored)))
        .contains(
            "The PodMonitor scrapes with the bearer token of Secret release-jvm-sentinel-http"
                + " (key token),\nthe one the daemon reads. The daemon reads it at start: after"
                + " rotating it, restart the daemon's pods.");
    assertThat(
            notes(
                concat(
                    JMX_STANDALONE,
                    List.of(
                        "--set", "config.http.auth.basic.username=prometheus",
                        "--set", "config.http.auth.basic.passwordFile=/s/password",
                        "--set", "podMonitor.basicAuth.username.name=orders-scrape",
                        "--set", "podMonitor.basicAuth.username.key=username",
                        "--set", "podMonitor.basicAuth.password.name=orders-scrape",
                        "--set", "podMonitor.basicAuth.password.key=password"))))
        .contains(
            "The PodMonitor scrapes with basic auth, username and password from Secret"
                + " orders-scrape (keys username, password),");
    assertThat(notes(JMX_STANDALONE)).doesNotContain("The PodMonitor scrapes with");
  }

  /**
   * NOTES.txt as helm install prints it. helm template leaves NOTES.txt out, so a copy of the chart
   * (links followed) renders it through a template that returns it as a value.
   */
  private String notes(List<String> values) throws IOException {
    Path copy = dir.resolve("notes-chart");
    if (!Files.exists(copy)) {
      chartCopy("notes-chart");
      Files.copy(CHART.resolve("templates/NOTES.txt"), copy.resolve("notes-source.txt"));
      Files.writeString(
          copy.resolve("templates/notes.yaml"),
          "notes: {{ tpl (.Files.Get \"notes-source.txt\") . | toJson }}\n");
    }
    String rendered =
        template(concat(values, List.of("--show-only", "templates/notes.yaml")), copy);
    return DeployFiles.YAML.readTree(rendered).path("notes").asText();
  }

  /** A copy of the chart under {@code name} (links followed), made once per test. */
  private Path chartCopy(String name) throws IOException {
    Path copy = dir.resolve(name);
    if (!Files.exists(copy)) {
      try (var files = Files.walk(CHART)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Path target = copy.resolve(CHART.relativize(file).toString());
          Files.createDirectories(target.getParent());
          Files.copy(file, target); // follows links: rules/, dashboards/, alertmanager/
        }
      }
    }
    return copy;
  }

  @Test
  void aWrongTypeOrAnUnknownKeyIsRejectedByTheValuesSchema() {
    for (List<String> wrong :
        List.of(
            List.of("--set", "port=metrics"),
            List.of("--set-string", "sidecar.native=yes"),
            List.of("--set", "podMonitor.enabeld=true"),
            List.of("--set", "endpointAuth.token=guess"),
            List.of("--set-string", "endpointAuth.openMetrics=yes"))) {
      List<String> values = concat(SNIPPET_ONLY, wrong);
      Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
      assertThat(lint.exitCode()).as(lint.output()).isNotZero();
      Result template = helm(concat(List.of("template", "release", CHART.toString()), values));
      assertThat(template.exitCode()).as(template.output()).isNotZero();
      assertThat(template.output()).contains("values don't meet the specifications of the schema");
    }
  }

  @Test
  void kubePrometheusStackPicksUpTheMonitorRulesInhibitionAndDashboardsWithOneValuesLine()
      throws Exception {
    List<String> kps =
        List.of(
            "--set", "prometheusRelease=kube-prometheus-stack",
            "--set", "podMonitor.enabled=true",
            "--set", "prometheusRule.enabled=true",
            "--set", "alertmanagerConfig.enabled=true",
            "--set", "dashboards.enabled=true",
            "--set", "dashboards.namespace=monitoring");
    List<String> sidecar =
        List.of("--set", "workload.enabled=true", "--set", "jmx.existingSecret=orders-jmx");
    List<List<String>> modes =
        List.of(sidecar, DISCOVERY_CLUSTER, List.of("--set", "nodeAgent.enabled=true"));
    for (List<String> mode : modes) {
      String rendered = lintedAndValid(concat(mode, kps));
      for (String kind : List.of("PodMonitor", "PrometheusRule", "AlertmanagerConfig")) {
        assertThat(object(rendered, kind).at("/metadata/labels/release").asText())
            .as(kind)
            .isEqualTo("kube-prometheus-stack");
      }
      // The PodMonitor selects the pods this release runs: the sidecar's, the fleet daemon's
      // or the node agent's.
      JsonNode selector = object(rendered, "PodMonitor").at("/spec/selector/matchLabels");
      JsonNode workload =
          objects(rendered, "Deployment").isEmpty()
              ? object(rendered, "DaemonSet")
              : object(rendered, "Deployment");
      JsonNode podLabels = workload.at("/spec/template/metadata/labels");
      selector
          .properties()
          .forEach(
              e ->
                  assertThat(podLabels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
      assertThat(selector.size()).isPositive();
      // Every mode's series carry their JVM's namespace, pod and container: the scrape keeps them.
      assertThat(
              object(rendered, "PodMonitor")
                  .at("/spec/podMetricsEndpoints/0/honorLabels")
                  .asBoolean())
          .as("PodMonitor honorLabels")
          .isTrue();
    }

    String rendered = template(concat(sidecar, kps));
    // Dashboards: one ConfigMap per file of dashboards/grafana/, its content that file's.
    List<Path> sources =
        DeployFiles.filesUnder(DeployFiles.repo().resolve("dashboards/grafana"), ".json");
    List<JsonNode> maps =
        objects(rendered, "ConfigMap").stream()
            .filter(m -> m.at("/metadata/labels/grafana_dashboard").asText().equals("1"))
            .toList();
    assertThat(maps).hasSize(sources.size());
    for (Path source : sources) {
      String name = source.getFileName().toString();
      JsonNode map = maps.stream().filter(m -> m.at("/data").has(name)).findFirst().orElseThrow();
      assertThat(map.at("/metadata/namespace").asText()).isEqualTo("monitoring");
      assertThat(map.at("/data").get(name).asText()).isEqualTo(Files.readString(source).strip());
    }

    // The job selector and runbook base URL are values.
    String custom =
        template(
            concat(
                JMX_STANDALONE,
                List.of(
                    "--set", "prometheusRule.jobSelector=platform/jvm-monitor",
                    "--set", "runbookBaseUrl=https://wiki.example.com/runbooks/")));
    // The daemon's own notifications link the same runbooks.
    JsonNode daemonConfig =
        DeployFiles.YAML.readTree(object(custom, "ConfigMap").at("/data/sentinel.yaml").asText());
    assertThat(daemonConfig.at("/alerts/runbookBaseUrl").asText())
        .isEqualTo("https://wiki.example.com/runbooks/");
    JsonNode rules = object(custom, "PrometheusRule").at("/spec/groups");
    List<JsonNode> all = new ArrayList<>();
    rules.forEach(g -> g.get("rules").forEach(all::add));
    JsonNode absent =
        all.stream()
            .filter(r -> r.path("alert").asText().equals("JvmSentinelDaemonAbsent"))
            .findFirst()
            .orElseThrow();
    assertThat(absent.get("expr").asText()).isEqualTo("absent(up{job=~\"platform/jvm-monitor\"})");
    assertThat(all)
        .allSatisfy(
            r ->
                assertThat(r.at("/annotations/runbook_url").asText())
                    .startsWith("https://wiki.example.com/runbooks/"));

    // The AlertmanagerConfig holds alerts/alertmanager/inhibit-rules.yml, matcher by matcher.
    JsonNode inhibit = object(rendered, "AlertmanagerConfig").at("/spec/inhibitRules");
    JsonNode source =
        DeployFiles.single(DeployFiles.repo().resolve("alerts/alertmanager/inhibit-rules.yml"))
            .get("inhibit_rules");
    assertThat(inhibit).hasSize(source.size());
    for (int i = 0; i < source.size(); i++) {
      assertThat(inhibit.get(i).get("equal")).isEqualTo(source.get(i).get("equal"));
      assertThat(matchers(inhibit.get(i).get("sourceMatch")))
          .isEqualTo(texts(source.get(i).get("source_matchers")));
      assertThat(matchers(inhibit.get(i).get("targetMatch")))
          .isEqualTo(texts(source.get(i).get("target_matchers")));
    }
  }

  @Test
  void deployIsYamllintClean() {
    // deploy/.yamllint leaves out the chart's Go templates, whose rendered output is checked above.
    Result lint =
        run(
            List.of(
                tool("yamllint-venv/bin/yamllint", "yamllint"),
                "-f",
                "parsable",
                "-c",
                "deploy/.yamllint",
                "deploy"));
    assertThat(lint.exitCode()).as(lint.output()).isZero();
    assertThat(lint.output()).isEmpty();
  }

  private static List<String> matchers(JsonNode match) {
    List<String> out = new ArrayList<>();
    match.forEach(
        m ->
            out.add(
                m.get("name").asText()
                    + m.get("matchType").asText()
                    + "\""
                    + m.get("value").asText()
                    + "\""));
    return out;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(t -> out.add(t.asText()));
    return out;
  }

  private static String appVersion() {
    return DeployFiles.single(CHART.resolve("Chart.yaml")).get("appVersion").asText();
  }

  private static void assertOnlyReadsPods(JsonNode role) {
    assertOnlyReadsPods(role, "get", "list", "watch");
  }

  private static void assertOnlyReadsPods(JsonNode role, String... verbs) {
    JsonNode rules = role.get("rules");
    assertThat(rules).hasSize(1);
    assertThat(rules.get(0).get("resources")).extracting(JsonNode::asText).containsExactly("pods");
    assertThat(rules.get(0).get("verbs"))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder(verbs);
  }

  @Test
  void jmxWithoutASecretFailsWithAnActionableMessage() {
    Result result = helm(List.of("template", "release", CHART.toString()));
    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output()).contains("mode jmx needs jmx.existingSecret");
    Result badMode = helm(List.of("template", "release", CHART.toString(), "--set", "mode=agent"));
    // values.schema.json says it before the template's own check could.
    assertThat(badMode.output()).contains("at '/mode': value must be one of 'jmx', 'pid'");
  }

  @Test
  void theNodeAgentRendersValidObjectsLikeTheManifestAndExcludesTheWorkload() throws Exception {
    List<String> values = List.of("--set", "nodeAgent.enabled=true");
    Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
    assertThat(lint.exitCode()).as(lint.output()).isZero();
    String rendered = template(values);
    Path out = dir.resolve("node-agent.yaml");
    Files.writeString(out, rendered);
    Path manifest = DeployFiles.deploy().resolve("kubernetes/node-agent-daemonset.yaml");
    Result validation = validate(List.of(out.toString(), manifest.toString()));
    assertThat(validation.exitCode()).as(validation.output()).isZero();
    // ServiceAccount, ConfigMap, DaemonSet: rendered, and in the manifest; rendered, the Secret of
    // the endpoint's token (the manifest takes one made by hand). No sidecar ConfigMap.
    assertThat(validation.output()).contains("7 passed, 0 failed");

    String config =
        NodeAgentPod.check(object(rendered, "DaemonSet"), object(rendered, "ConfigMap"));
    NodeAgentPod.checkConfig(DeployFiles.loadExample(config, "sentinel.yaml", dir));
    JsonNode pod = object(rendered, "DaemonSet").at("/spec/template/spec");
    TmpBudget.check("node agent", pod, pod.at("/containers/0"), config);
    assertThat(config).contains("maxDiskMb: 1536");
    String ownBudget = template(concat(values, List.of("--set", "config.storage.maxDiskMb=1000")));
    assertThat(object(ownBudget, "ConfigMap").at("/data/sentinel.yaml").asText())
        .contains("maxDiskMb: 1000");
    Result otherUnit =
        helm(
            concat(
                List.of("template", "release", CHART.toString()),
                concat(values, List.of("--set", "nodeAgent.tmpSizeLimit=2G"))));
    assertThat(otherUnit.exitCode()).isNotZero();
    assertThat(otherUnit.output())
        .contains("nodeAgent.tmpSizeLimit (2G) must be in Mi or Gi")
        .contains("or set config.storage.maxDiskMb");

    Result both =
        helm(
            concat(
                List.of("template", "release", CHART.toString()),
                List.of("--set", "nodeAgent.enabled=true", "--set", "workload.enabled=true")));
    assertThat(both.exitCode()).isNotZero();
    assertThat(both.output()).contains("nodeAgent.enabled and workload.enabled exclude each other");
  }

  /**
   * nodeAgent.podIdentity: off (the default), no token and no RBAC; on, a ClusterRole that gets and
   * lists pods only, bound to the agent's ServiceAccount, and the token mounted; both strictly
   * valid, and the pod otherwise the same.
   */
  @Test
  void podIdentityGivesTheNodeAgentATokenAndRbacToListPodsOnlyWhenEnabled() throws Exception {
    List<String> nodeAgent = List.of("--set", "nodeAgent.enabled=true");
    String off = lintedAndValid(nodeAgent);
    assertThat(object(off, "ServiceAccount").path("automountServiceAccountToken").asBoolean(true))
        .isFalse();
    assertThat(
            object(off, "DaemonSet")
                .at("/spec/template/spec/automountServiceAccountToken")
                .asBoolean(true))
        .isFalse();
    assertThat(objects(off, "ClusterRole")).isEmpty();
    assertThat(objects(off, "ClusterRoleBinding")).isEmpty();

    String on =
        lintedAndValid(concat(nodeAgent, List.of("--set", "nodeAgent.podIdentity.enabled=true")));
    JsonNode account = object(on, "ServiceAccount");
    assertThat(account.path("automountServiceAccountToken").asBoolean(false)).isTrue();
    JsonNode pod = object(on, "DaemonSet").at("/spec/template/spec");
    assertThat(pod.path("automountServiceAccountToken").asBoolean(false)).isTrue();
    assertThat(pod.path("serviceAccountName").asText())
        .isEqualTo(account.at("/metadata/name").asText());
    JsonNode role = object(on, "ClusterRole");
    assertOnlyReadsPods(role, "get", "list");
    JsonNode binding = object(on, "ClusterRoleBinding");
    assertThat(binding.at("/roleRef/name").asText()).isEqualTo(role.at("/metadata/name").asText());
    assertThat(binding.at("/subjects/0/name").asText())
        .isEqualTo(account.at("/metadata/name").asText());

    Result wrongType =
        helm(
            concat(
                List.of("template", "release", CHART.toString()),
                concat(nodeAgent, List.of("--set", "nodeAgent.podIdentity.enabled=yes"))));
    assertThat(wrongType.exitCode()).isNotZero();
    assertThat(wrongType.output())
        .contains("at '/nodeAgent/podIdentity/enabled': got string, want boolean");
  }

  /**
   * The node agent and the discovery daemon get bearer authentication by default, like the plain
   * manifests: the token from a Secret the chart generates (or yours), mounted where http.auth
   * reads it; /metrics closed unless endpointAuth.openMetrics, and then the PodMonitor sends the
   * token from the same Secret.
   */
  @Test
  void fleetDaemonsRequireABearerTokenByDefaultAndThePodMonitorSendsIt() throws Exception {
    List<String> nodeAgent = List.of("--set", "nodeAgent.enabled=true");
    List<String> monitored = List.of("--set", "podMonitor.enabled=true");
    for (List<String> mode : List.of(nodeAgent, DISCOVERY_CLUSTER, DISCOVERY_PER_NODE)) {
      String rendered = lintedAndValid(concat(mode, monitored));

      JsonNode secret = object(rendered, "Secret");
      String secretName = secret.at("/metadata/name").asText();
      assertThat(secretName).isEqualTo("release-jvm-sentinel-http");
      String token =
          new String(
              Base64.getDecoder().decode(secret.at("/data/token").asText()),
              StandardCharsets.US_ASCII);
      assertThat(token).matches("[A-Za-z0-9]{43}");

      SentinelConfig config = fleetConfig(rendered);
      assertThat(config.http().auth()).isInstanceOf(HttpAuth.Bearer.class);
      assertThat(config.http().openMetrics()).isFalse();
      assertThat(tokenVolume(rendered).at("/secret/secretName").asText()).isEqualTo(secretName);

      JsonNode endpoint = object(rendered, "PodMonitor").at("/spec/podMetricsEndpoints/0");
      assertThat(endpoint.at("/authorization/type").asText()).isEqualTo("Bearer");
      assertThat(endpoint.at("/authorization/credentials/name").asText()).isEqualTo(secretName);
      assertThat(endpoint.at("/authorization/credentials/key").asText()).isEqualTo("token");
    }

    // /metrics open by choice: the API still needs the token, the PodMonitor sends none.
    String open =
        template(
            concat(
                concat(nodeAgent, monitored), List.of("--set", "endpointAuth.openMetrics=true")));
    assertThat(fleetConfig(open).http().openMetrics()).isTrue();
    assertThat(fleetConfig(open).http().auth()).isInstanceOf(HttpAuth.Bearer.class);
    assertThat(object(open, "PodMonitor").at("/spec/podMetricsEndpoints/0").has("authorization"))
        .isFalse();

    // A Secret of one's own: none generated, that one mounted and sent.
    String own =
        template(
            concat(
                concat(DISCOVERY_CLUSTER, monitored),
                List.of(
                    "--set", "endpointAuth.existingSecret=scrape-token",
                    "--set", "endpointAuth.tokenKey=bearer")));
    assertThat(objects(own, "Secret")).isEmpty();
    assertThat(tokenVolume(own).at("/secret/secretName").asText()).isEqualTo("scrape-token");
    assertThat(texts(tokenVolume(own).at("/secret/items"), "key")).containsExactly("bearer");
    assertThat(
            object(own, "PodMonitor")
                .at("/spec/podMetricsEndpoints/0/authorization/credentials/name")
                .asText())
        .isEqualTo("scrape-token");

    // Off by choice; and never for the sidecar or the standalone workload.
    String off = template(concat(nodeAgent, List.of("--set", "endpointAuth.enabled=false")));
    assertThat(objects(off, "Secret")).isEmpty();
    assertThat(fleetConfig(off).http().auth()).isEqualTo(HttpAuth.NONE);
    assertThat(objects(template(JMX_STANDALONE), "Secret")).isEmpty();
  }

  /**
   * The PodMonitor sends what the daemon's http.auth asks for, by reference to the Secret the
   * daemon reads, in every mode: endpointAuth's token (the sidecar with endpointAuth.sidecar), a
   * config.http.auth of one's own with the Secret named in podMonitor.authorization or basicAuth;
   * nothing when /metrics is open. A credential the chart cannot name stops the install.
   */
  @Test
  void thePodMonitorCarriesTheCredentialsOfTheDaemonsHttpAuthInEveryMode() throws Exception {
    List<String> monitored = List.of("--set", "podMonitor.enabled=true");
    List<String> snippet = concat(SNIPPET_ONLY, concat(monitored, INCLUDED_POD_SELECTOR));
    List<List<String>> sidecars =
        List.of(
            JMX_STANDALONE,
            PID_STANDALONE,
            concat(JMX_STANDALONE, List.of("--set", "sidecar.native=true")),
            snippet);
    List<String> sidecarAuth = List.of("--set", "endpointAuth.sidecar=true");
    for (List<String> mode : sidecars) {
      // No http.auth: the sidecar's default, and a PodMonitor without credentials.
      String plain = lintedAndValid(mode);
      assertThat(credentials(plain)).as("%s", mode).isEmpty();
      assertThat(objects(plain, "Secret")).isEmpty();

      // endpointAuth.sidecar: the fleet daemons' token, mounted where http.auth reads it, sent.
      String secured = lintedAndValid(concat(mode, sidecarAuth));
      String secretName = object(secured, "Secret").at("/metadata/name").asText();
      assertThat(secretName).isEqualTo("release-jvm-sentinel-http");
      assertThat(credentials(secured))
          .as("%s", mode)
          .containsExactly("authorization: Bearer release-jvm-sentinel-http/token");
      String yaml = object(secured, "ConfigMap").at("/data/sentinel.yaml").asText();
      assertThat(DeployFiles.YAML.readTree(yaml).at("/http/auth/bearer/tokenFile").asText())
          .isEqualTo("/var/run/secrets/jvm-sentinel-http/token");
      for (JsonNode pod : podsOf(secured)) {
        JsonNode sidecar = sidecarOf(pod);
        JsonNode volume = credentialVolume(pod, "http-token");
        assertThat(volume.at("/secret/secretName").asText()).isEqualTo(secretName);
        if (mode != PID_STANDALONE) { // pid mode's target comes from find-pid.sh's --pid
          SentinelConfig config =
              DeployFiles.loadExample(
                  yaml,
                  "sentinel.yaml",
                  Files.createTempDirectory(dir, "sidecar"),
                  DeployFiles.environment(sidecar));
          assertThat(config.http().auth()).isInstanceOf(HttpAuth.Bearer.class);
        }
      }
      // ... and /metrics open by choice: no credentials to send.
      String open =
          lintedAndValid(
              concat(concat(mode, sidecarAuth), List.of("--set", "endpointAuth.openMetrics=true")));
      assertThat(credentials(open)).isEmpty();
    }

    // A config.http.auth of one's own, in a sidecar and in a fleet daemon: the Secret it names.
    List<String> ownBearer =
        List.of(
            "--set", "config.http.auth.bearer.tokenFile=/var/run/secrets/scrape/token",
            "--set", "podMonitor.authorization.credentials.name=orders-scrape",
            "--set", "podMonitor.authorization.credentials.key=token");
    List<String> ownBasic =
        List.of(
            "--set", "config.http.auth.basic.username=prometheus",
            "--set", "config.http.auth.basic.passwordFile=/var/run/secrets/scrape/password",
            "--set", "podMonitor.basicAuth.username.name=orders-scrape",
            "--set", "podMonitor.basicAuth.username.key=username",
            "--set", "podMonitor.basicAuth.password.name=orders-scrape",
            "--set", "podMonitor.basicAuth.password.key=password");
    List<String> nodeAgent = concat(List.of("--set", "nodeAgent.enabled=true"), monitored);
    for (List<String> mode : List.of(JMX_STANDALONE, snippet, nodeAgent, DISCOVERY_CLUSTER)) {
      List<String> withMonitor = concat(mode, monitored);
      assertThat(credentials(lintedAndValid(concat(withMonitor, ownBearer))))
          .as("%s", mode)
          .containsExactly("authorization: Bearer orders-scrape/token");
      assertThat(credentials(lintedAndValid(concat(withMonitor, ownBasic))))
          .as("%s", mode)
          .containsExactly("basicAuth: orders-scrape/username orders-scrape/password");
    }
    // Your own http.auth reading endpointAuth's mounted token: that Secret, nothing to name.
    assertThat(
            credentials(
                lintedAndValid(
                    concat(
                        nodeAgent,
                        List.of(
                            "--set",
                            "config.http.auth.bearer.tokenFile="
                                + "/var/run/secrets/jvm-sentinel-http/token")))))
        .containsExactly("authorization: Bearer release-jvm-sentinel-http/token");

    // With HTTPS: the scheme, the tlsConfig and the credentials together.
    String https =
        lintedAndValid(
            concat(
                concat(JMX_STANDALONE, sidecarAuth),
                List.of(
                    "--set", "config.http.tls.keyStore=/var/run/secrets/http/keystore.p12",
                    "--set", "config.http.tls.keyStorePasswordFile=/var/run/secrets/http/password",
                    "--set", "podMonitor.tlsConfig.ca.secret.name=jvm-sentinel-ca",
                    "--set", "podMonitor.tlsConfig.ca.secret.key=ca.crt")));
    JsonNode endpoint = object(https, "PodMonitor").at("/spec/podMetricsEndpoints/0");
    assertThat(endpoint.path("scheme").asText()).isEqualTo("https");
    assertThat(endpoint.at("/tlsConfig/ca/secret/name").asText()).isEqualTo("jvm-sentinel-ca");
    assertThat(credentials(https))
        .containsExactly("authorization: Bearer release-jvm-sentinel-http/token");

    // Metrics open by choice with one's own http.auth: nothing sent, nothing to name.
    assertThat(
            credentials(
                lintedAndValid(
                    concat(
                        JMX_STANDALONE,
                        List.of(
                            "--set", "config.http.auth.bearer.tokenEnv=SCRAPE_TOKEN",
                            "--set", "config.http.openMetrics=true")))))
        .isEmpty();
  }

  @Test
  void aPodMonitorThatCouldNotAuthenticateStopsTheInstall() {
    List<String> bearerOnly =
        concat(JMX_STANDALONE, List.of("--set", "config.http.auth.bearer.tokenEnv=SCRAPE_TOKEN"));
    assertThat(templateFails(bearerOnly))
        .contains(
            "config.http.auth.bearer closes /metrics, and the PodMonitor cannot know which Secret"
                + " holds its credential: set podMonitor.authorization");
    assertThat(
            templateFails(
                concat(
                    JMX_STANDALONE,
                    List.of(
                        "--set", "config.http.auth.basic.username=prometheus",
                        "--set", "config.http.auth.basic.passwordEnv=SCRAPE_PASSWORD"))))
        .contains("config.http.auth.basic closes /metrics")
        .contains("set podMonitor.basicAuth");
    List<String> bearerSecret =
        List.of(
            "--set", "podMonitor.authorization.credentials.name=orders-scrape",
            "--set", "podMonitor.authorization.credentials.key=token");
    assertThat(
            templateFails(
                concat(
                    JMX_STANDALONE,
                    concat(
                        bearerSecret,
                        List.of(
                            "--set", "config.http.auth.basic.username=prometheus",
                            "--set", "config.http.auth.basic.passwordEnv=SCRAPE_PASSWORD")))))
        .contains(
            "config.http.auth.basic wants podMonitor.basicAuth, not podMonitor.authorization");
    assertThat(templateFails(concat(JMX_STANDALONE, bearerSecret)))
        .contains("podMonitor.authorization is set, but the daemon asks for no credentials")
        .contains("endpointAuth.sidecar turns it on for the sidecar");
    assertThat(
            templateFails(
                concat(
                    List.of("--set", "nodeAgent.enabled=true", "--set", "podMonitor.enabled=true"),
                    bearerSecret)))
        .contains(
            "with endpointAuth the PodMonitor sends its token already"
                + " (Secret release-jvm-sentinel-http): remove podMonitor.authorization");
    // Half a reference never reaches the templates.
    assertThat(
            templateFails(
                concat(
                    JMX_STANDALONE,
                    List.of("--set", "podMonitor.authorization.credentials.name=orders-scrape"))))
        .contains("values don't meet the specifications of the schema")
        .contains("missing property 'key'");
    // Without a PodMonitor nothing is sent, so nothing needs naming.
    assertThat(
            helm(concat(
                    List.of("template", "release", CHART.toString()),
                    concat(
                        SNIPPET_ONLY,
                        List.of("--set", "config.http.auth.bearer.tokenEnv=SCRAPE_TOKEN"))))
                .exitCode())
        .isZero();
  }

  /**
   * endpointAuth.scheme basic: the daemon's http.auth.basic (the username in its config, the
   * password from a mounted Secret file), a Secret the chart generates (username and a random
   * password) or yours, and a PodMonitor whose basicAuth reads both keys of that Secret. The
   * password is never in a ConfigMap or the pod spec.
   */
  @Test
  void basicAuthFromAGeneratedOrOwnSecretIsMountedConfiguredAndSentByThePodMonitor()
      throws Exception {
    List<String> basic =
        List.of("--set", "endpointAuth.scheme=basic", "--set", "podMonitor.enabled=true");
    List<String> sidecarAuth = List.of("--set", "endpointAuth.sidecar=true");
    List<List<String>> modes =
        List.of(
            List.of("--set", "nodeAgent.enabled=true"),
            DISCOVERY_CLUSTER,
            DISCOVERY_PER_NODE,
            concat(JMX_STANDALONE, sidecarAuth),
            concat(PID_STANDALONE, sidecarAuth),
            concat(JMX_STANDALONE, concat(sidecarAuth, List.of("--set", "sidecar.native=true"))),
            concat(SNIPPET_ONLY, concat(sidecarAuth, INCLUDED_POD_SELECTOR)));
    for (List<String> mode : modes) {
      String rendered = lintedAndValid(concat(mode, basic));
      JsonNode secret = object(rendered, "Secret");
      assertThat(secret.at("/metadata/name").asText()).isEqualTo("release-jvm-sentinel-http");
      assertThat(decoded(secret, "username")).isEqualTo("prometheus");
      String password = decoded(secret, "password");
      assertThat(password).matches("[A-Za-z0-9]{43}");
      assertThat(secret.path("data").size()).as("%s", secret).isEqualTo(2);
      // The password only in the Secret, base64 as Kubernetes keeps it.
      assertThat(rendered).as("%s", mode).doesNotContain(password);

      assertThat(credentials(rendered))
          .as("%s", mode)
          .containsExactly(
              "basicAuth: release-jvm-sentinel-http/username"
                  + " release-jvm-sentinel-http/password");
      String yaml =
          objects(rendered, "ConfigMap").stream()
              .filter(m -> m.at("/data/sentinel.yaml").isTextual())
              .findFirst()
              .orElseThrow()
              .at("/data/sentinel.yaml")
              .asText();
      JsonNode auth = DeployFiles.YAML.readTree(yaml).at("/http/auth");
      assertThat(auth.at("/basic/username").asText()).isEqualTo("prometheus");
      assertThat(auth.at("/basic/passwordFile").asText())
          .isEqualTo("/var/run/secrets/jvm-sentinel-http/password");
      assertThat(auth.has("bearer")).isFalse();
      for (JsonNode pod : podsOf(rendered)) {
        // The sidecar's or the fleet daemon's container mounts the password, and only it.
        JsonNode volume = credentialVolume(pod, "http-password");
        assertThat(volume.at("/secret/secretName").asText()).isEqualTo("release-jvm-sentinel-http");
        assertThat(texts(volume.at("/secret/items"), "key")).containsExactly("password");
      }
      if (mode.contains("nodeAgent.enabled=true") || mode.contains("discovery.enabled=true")) {
        SentinelConfig config = fleetConfig(rendered);
        assertThat(config.http().auth())
            .isInstanceOfSatisfying(
                HttpAuth.Basic.class, b -> assertThat(b.username()).isEqualTo("prometheus"));
      }
    }

    // Your own Secret and keys: none generated, yours mounted and sent; another username.
    String own =
        lintedAndValid(
            concat(
                concat(List.of("--set", "nodeAgent.enabled=true"), basic),
                List.of(
                    "--set", "endpointAuth.existingSecret=scrape-basic",
                    "--set", "endpointAuth.basic.username=vmagent",
                    "--set", "endpointAuth.basic.usernameKey=user",
                    "--set", "endpointAuth.basic.passwordKey=pass")));
    assertThat(objects(own, "Secret")).isEmpty();
    assertThat(credentials(own)).containsExactly("basicAuth: scrape-basic/user scrape-basic/pass");
    assertThat(fleetConfig(own).http().auth())
        .isInstanceOfSatisfying(
            HttpAuth.Basic.class, b -> assertThat(b.username()).isEqualTo("vmagent"));
    JsonNode ownVolume =
        DeployFiles.byName(
                object(own, "DaemonSet").at("/spec/template/spec/volumes"), "http-password")
            .orElseThrow();
    assertThat(ownVolume.at("/secret/secretName").asText()).isEqualTo("scrape-basic");
    assertThat(texts(ownVolume.at("/secret/items"), "key")).containsExactly("pass");

    // /metrics open by choice: the API still wants basic auth, the PodMonitor sends nothing.
    String open =
        template(
            concat(
                concat(List.of("--set", "nodeAgent.enabled=true"), basic),
                List.of("--set", "endpointAuth.openMetrics=true")));
    assertThat(credentials(open)).isEmpty();
    assertThat(fleetConfig(open).http().openMetrics()).isTrue();

    // What cannot work stops helm: a username basic auth cannot carry, one key for both, a
    // podMonitor.basicAuth of one's own on top of endpointAuth's, an unknown scheme.
    List<String> nodeAgentBasic = concat(List.of("--set", "nodeAgent.enabled=true"), basic);
    assertThat(
            templateFails(
                concat(nodeAgentBasic, List.of("--set", "endpointAuth.basic.username=a:b"))))
        .contains("at '/endpointAuth/basic/username'");
    assertThat(
            templateFails(
                concat(
                    nodeAgentBasic, List.of("--set", "endpointAuth.basic.usernameKey=password"))))
        .contains("endpointAuth.basic.usernameKey and passwordKey are both \"password\"");
    assertThat(
            templateFails(
                concat(
                    nodeAgentBasic,
                    List.of(
                        "--set", "podMonitor.basicAuth.username.name=x",
                        "--set", "podMonitor.basicAuth.username.key=u",
                        "--set", "podMonitor.basicAuth.password.name=x",
                        "--set", "podMonitor.basicAuth.password.key=p"))))
        .contains(
            "with endpointAuth the PodMonitor sends its username and password already"
                + " (Secret release-jvm-sentinel-http): remove podMonitor.basicAuth");
    assertThat(
            templateFails(
                List.of("--set", "nodeAgent.enabled=true", "--set", "endpointAuth.scheme=digest")))
        .contains("at '/endpointAuth/scheme': value must be one of 'bearer', 'basic'");
  }

  /**
   * endpointAuth.existingSecret as helm install and upgrade find it (lookup, which helm template
   * cannot do): checkSecret, fed the Secret a cluster would return, stops a Secret without the
   * password or token key, or whose username is not the one the daemon expects.
   */
  @Test
  void anExistingSecretThatCannotWorkStopsTheInstall() throws IOException {
    List<String> basic =
        List.of(
            "--set", "nodeAgent.enabled=true",
            "--set", "endpointAuth.scheme=basic",
            "--set", "endpointAuth.existingSecret=scrape-basic");
    String prometheus = Base64.getEncoder().encodeToString("prometheus".getBytes());
    String vmagent = Base64.getEncoder().encodeToString("vmagent".getBytes());
    assertThat(checkSecret(basic, "{username: " + prometheus + ", password: cHc=}")).isZero();
    assertThat(checkSecretFails(basic, "{username: " + vmagent + ", password: cHc=}"))
        .contains(
            "endpointAuth.existingSecret scrape-basic: key username must hold"
                + " endpointAuth.basic.username (prometheus), which the daemon expects and the"
                + " PodMonitor sends from that key; it holds another name");
    assertThat(checkSecretFails(basic, "{password: cHc=}")).contains("; the key is missing");
    assertThat(checkSecretFails(basic, "{username: " + prometheus + "}"))
        .contains(
            "endpointAuth.existingSecret scrape-basic has no key password"
                + " (endpointAuth.basic.passwordKey): add it, or set that value to the key that"
                + " holds the password");
    List<String> bearer =
        List.of("--set", "nodeAgent.enabled=true", "--set", "endpointAuth.existingSecret=mine");
    assertThat(checkSecret(bearer, "{token: dA==}")).isZero();
    assertThat(checkSecretFails(bearer, "{bearer: dA==}"))
        .contains("endpointAuth.existingSecret mine has no key token (endpointAuth.tokenKey)");
  }

  private int checkSecret(List<String> values, String data) throws IOException {
    return checkSecretRun(values, data).exitCode();
  }

  private String checkSecretFails(List<String> values, String data) throws IOException {
    Result result = checkSecretRun(values, data);
    assertThat(result.exitCode()).as(result.output()).isNotZero();
    return result.output();
  }

  /** A copy of the chart with a template that runs checkSecret on {@code data} as the Secret's. */
  private Result checkSecretRun(List<String> values, String data) throws IOException {
    Path copy = chartCopy("check-secret-chart");
    Files.writeString(copy.resolve("fake-secret.yaml"), "data: " + data + "\n");
    Files.writeString(
        copy.resolve("templates/check-secret.yaml"),
        "{{- include \"jvm-sentinel.endpointAuth.checkSecret\" (dict \"root\" . \"secret\""
            + " (.Files.Get \"fake-secret.yaml\" | fromYaml)) }}\nchecked: true\n");
    return helm(
        concat(
            List.of("template", "release", copy.toString()),
            concat(values, List.of("--show-only", "templates/check-secret.yaml"))));
  }

  private static String decoded(JsonNode secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.at("/data/" + key).asText()), StandardCharsets.UTF_8);
  }

  /**
   * A chart that includes the sidecar renders its own pod: the default PodMonitor selector (the
   * standalone Deployment's labels) would select nothing, so helm stops and names the value.
   */
  @Test
  void aPodMonitorForAnIncludedSidecarNeedsThePodsSelector() throws IOException {
    List<String> included = concat(SNIPPET_ONLY, List.of("--set", "podMonitor.enabled=true"));
    assertThat(templateFails(included))
        .contains(
            "podMonitor.selector is empty, and this release renders no pod for the PodMonitor to"
                + " select: your own pod carries the sidecar (workload.enabled is false). Set"
                + " podMonitor.selector to that pod's labels");
    JsonNode selector =
        object(lintedAndValid(concat(included, INCLUDED_POD_SELECTOR)), "PodMonitor")
            .at("/spec/selector/matchLabels");
    assertThat(selector.properties())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getKey()).isEqualTo("app.kubernetes.io/name");
              assertThat(e.getValue().asText()).isEqualTo("orders");
            });
    // Where the release renders the pods, the default selects them (checked with kube-prometheus-
    // stack's values above); the standalone Deployment needs no selector.
    assertThat(
            object(template(JMX_STANDALONE), "PodMonitor")
                .at("/spec/selector/matchLabels/app.kubernetes.io~1instance")
                .asText())
        .isEqualTo("release");
  }

  /**
   * No Kubernetes API token where none is needed: the standalone pod does not mount one (unless
   * workload.automountServiceAccountToken), the sidecar covers the token's path with an empty
   * volume of its own in any pod, the discovery daemon (which asks the API) mounts it.
   */
  @Test
  void onlyThePodsThatAskTheApiMountItsToken() throws Exception {
    String tokenPath = "/var/run/secrets/kubernetes.io/serviceaccount";
    List<List<String>> sidecars =
        List.of(
            JMX_STANDALONE,
            PID_STANDALONE,
            concat(JMX_STANDALONE, List.of("--set", "sidecar.native=true")));
    for (List<String> mode : sidecars) {
      String rendered = lintedAndValid(mode);
      JsonNode pod = object(rendered, "Deployment").at("/spec/template/spec");
      assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).as("%s", mode).isFalse();
      assertCoversTheApiToken(pod, tokenPath);
      // The app's containers are the app's business.
      JsonNode app = DeployFiles.byName(pod.get("containers"), "app").orElseThrow();
      assertThat(texts(app.path("volumeMounts"), "mountPath")).doesNotContain(tokenPath);
    }
    JsonNode appNeedsIt =
        object(
                template(
                    concat(
                        JMX_STANDALONE,
                        List.of("--set", "workload.automountServiceAccountToken=true"))),
                "Deployment")
            .at("/spec/template/spec");
    assertThat(appNeedsIt.path("automountServiceAccountToken").asBoolean(false)).isTrue();
    assertCoversTheApiToken(appNeedsIt, tokenPath);

    for (List<String> mode : List.of(DISCOVERY_CLUSTER, DISCOVERY_PER_NODE)) {
      JsonNode pod = podsOf(lintedAndValid(mode)).get(0);
      assertThat(pod.path("automountServiceAccountToken").asBoolean(false)).as("%s", mode).isTrue();
      assertThat(texts(pod.at("/containers/0/volumeMounts"), "mountPath"))
          .doesNotContain(tokenPath);
    }
    // The node agent: podIdentityGivesTheNodeAgentATokenAndRbacToListPodsOnlyWhenEnabled.
  }

  private static void assertCoversTheApiToken(JsonNode pod, String tokenPath) {
    JsonNode mount =
        DeployFiles.byName(sidecarOf(pod).path("volumeMounts"), "jvm-sentinel-no-api-token")
            .orElseThrow();
    assertThat(mount.path("mountPath").asText()).isEqualTo(tokenPath);
    assertThat(mount.path("readOnly").asBoolean()).isTrue();
    JsonNode volume =
        DeployFiles.byName(pod.path("volumes"), "jvm-sentinel-no-api-token").orElseThrow();
    assertThat(volume.has("emptyDir")).as("%s", volume).isTrue();
  }

  /**
   * A credential over plain HTTP: NOTES.txt warns and says what to set; with config.http.tls, or
   * without http.auth, it does not.
   */
  @Test
  void theNotesWarnWhenACredentialWouldCrossThePodNetworkInClear() throws IOException {
    List<String> monitored = List.of("--set", "podMonitor.enabled=true");
    List<String> tls =
        List.of(
            "--set", "config.http.tls.keyStore=/var/run/secrets/http/keystore.p12",
            "--set", "config.http.tls.keyStorePasswordFile=/var/run/secrets/http/password");
    String fleet = notes(concat(DISCOVERY_CLUSTER, monitored));
    assertThat(fleet)
        .contains(
            "WARNING: The bearer token of endpointAuth crosses the pod network in clear: the"
                + " daemon serves plain\nHTTP (no config.http.tls) and the PodMonitor sends it on"
                + " every scrape. Serve HTTPS:")
        .contains("extraVolumes and extraVolumeMounts")
        .contains("set config.http.tls.keyStore and keyStorePasswordFile")
        .contains("set podMonitor.tlsConfig");
    assertThat(notes(concat(DISCOVERY_CLUSTER, List.of("--set", "endpointAuth.scheme=basic"))))
        .contains("WARNING: The basic auth password of endpointAuth crosses the pod network")
        .contains("wants basic auth as prometheus (endpointAuth)")
        .contains("-o jsonpath='{.data.password}' | base64 -d")
        .doesNotContain("set podMonitor.tlsConfig");
    assertThat(
            notes(
                List.of(
                    "--set", "workload.enabled=true",
                    "--set", "jmx.existingSecret=orders-jmx",
                    "--set", "config.http.auth.bearer.tokenEnv=SCRAPE_TOKEN")))
        .contains("WARNING: The bearer token of config.http.auth crosses the pod network");
    assertThat(notes(concat(concat(DISCOVERY_CLUSTER, monitored), tls))).doesNotContain("WARNING");
    assertThat(notes(JMX_STANDALONE)).doesNotContain("WARNING");
    assertThat(
            notes(
                List.of("--set", "nodeAgent.enabled=true", "--set", "endpointAuth.enabled=false")))
        .doesNotContain("WARNING");
  }

  private String templateFails(List<String> values) {
    Result result = helm(concat(List.of("template", "release", CHART.toString()), values));
    assertThat(result.exitCode()).as(result.output()).isNotZero();
    return result.output();
  }

  /**
   * The PodMonitor endpoint's credentials, one line each: "authorization: Bearer secret/key" or
   * "basicAuth: secret/key secret/key" (username, password). Secrets inlined would fail it.
   */
  private static List<String> credentials(String rendered) throws IOException {
    JsonNode endpoint = object(rendered, "PodMonitor").at("/spec/podMetricsEndpoints/0");
    List<String> out = new ArrayList<>();
    if (endpoint.has("authorization")) {
      JsonNode a = endpoint.get("authorization");
      assertThat(a.size()).as("%s", a).isEqualTo(2);
      out.add("authorization: " + a.path("type").asText() + " " + secretKey(a.get("credentials")));
    }
    if (endpoint.has("basicAuth")) {
      JsonNode b = endpoint.get("basicAuth");
      assertThat(b.size()).as("%s", b).isEqualTo(2);
      out.add("basicAuth: " + secretKey(b.get("username")) + " " + secretKey(b.get("password")));
    }
    assertThat(endpoint.has("bearerTokenSecret")).isFalse(); // deprecated by the operator
    return out;
  }

  private static String secretKey(JsonNode selector) {
    assertThat(selector.size()).as("a Secret key selector: %s", selector).isEqualTo(2);
    return selector.path("name").asText() + "/" + selector.path("key").asText();
  }

  private static List<JsonNode> podsOf(String rendered) throws IOException {
    List<JsonNode> pods = new ArrayList<>();
    objectsWithPods(rendered).forEach(o -> pods.add(o.at("/spec/template/spec")));
    return pods;
  }

  private static JsonNode sidecarOf(JsonNode pod) {
    return DeployFiles.byName(pod.path("containers"), "jvm-sentinel")
        .or(() -> DeployFiles.byName(pod.path("initContainers"), "jvm-sentinel"))
        .orElseThrow();
  }

  private SentinelConfig fleetConfig(String rendered) throws Exception {
    Path config = Files.createTempDirectory(dir, "fleet");
    return DeployFiles.loadExample(
        object(rendered, "ConfigMap").at("/data/sentinel.yaml").asText(),
        "sentinel.yaml",
        config,
        java.util.Map.of("NODE_NAME", "node-7"));
  }

  /** The volume behind the token file the daemon's http.auth reads. */
  private static JsonNode tokenVolume(String rendered) throws IOException {
    JsonNode workload =
        objects(rendered, "DaemonSet").isEmpty()
            ? object(rendered, "Deployment")
            : object(rendered, "DaemonSet");
    return credentialVolume(workload.at("/spec/template/spec"), "http-token");
  }

  /**
   * The pod's volume {@code name}, which the daemon's container (the sidecar or the fleet daemon,
   * both named jvm-sentinel) mounts where endpointAuth's http.auth reads its file.
   */
  private static JsonNode credentialVolume(JsonNode pod, String name) {
    JsonNode mount = DeployFiles.byName(sidecarOf(pod).path("volumeMounts"), name).orElseThrow();
    assertThat(mount.path("mountPath").asText()).isEqualTo("/var/run/secrets/jvm-sentinel-http");
    return DeployFiles.byName(pod.path("volumes"), name).orElseThrow();
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> texts = new ArrayList<>();
    array.forEach(item -> texts.add(item.path(field).asText()));
    return texts;
  }

  /**
   * The rendering of {@code values}, after {@code helm lint --strict} passes it; the validator
   * checks it after the test. The file is named by its values, which the validator's report names.
   */
  private String lintedAndValid(List<String> values) throws IOException {
    Result lint = helm(concat(List.of("lint", "--strict", CHART.toString()), values));
    assertThat(lint.exitCode()).as(lint.output()).isZero();
    String rendered = template(values);
    String name = String.join("_", values).replaceAll("[^A-Za-z0-9=._-]+", "_");
    String file = toValidate.size() + "-" + name.substring(0, Math.min(name.length(), 150));
    toValidate.add(Files.writeString(dir.resolve(file + ".yaml"), rendered));
    return rendered;
  }

  private String template(List<String> values) {
    return template(values, CHART);
  }

  private String template(List<String> values, Path chart) {
    Result result = helm(concat(List.of("template", "release", chart.toString()), values));
    assertThat(result.exitCode()).as(result.output()).isZero();
    return result.stdout();
  }

  private static JsonNode object(String rendered, String kind) throws IOException {
    return objects(rendered, kind).stream()
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " in\n" + rendered));
  }

  private static List<JsonNode> objects(String rendered, String kind) throws IOException {
    Path file = Files.createTempFile("rendered", ".yaml");
    try {
      Files.writeString(file, rendered);
      return DeployFiles.documents(file).stream()
          .filter(d -> kind.equals(d.path("kind").asText()))
          .toList();
    } finally {
      Files.delete(file);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** What a tool printed: {@code stdout} alone (rendered YAML), {@code output} with stderr. */
  private record Result(int exitCode, String stdout, String stderr) {
    String output() {
      return stdout + stderr;
    }
  }

  // The Kubernetes version of the schemas in .ci/validate-k8s.py.
  private static Result helm(List<String> args) {
    List<String> command = concat(List.of(tool("helm-v3.22.0/helm", "helm")), args);
    boolean renders = args.get(0).equals("template") || args.get(0).equals("lint");
    return run(renders ? concat(command, List.of("--kube-version", "1.34.0")) : command);
  }

  private static Result validate(List<String> files) {
    KubernetesValidator.Verdict verdict =
        validator().validate(files, Duration.ofSeconds(TIMEOUT_SECONDS));
    return new Result(verdict.valid() ? 0 : 1, verdict.report(), "");
  }

  /** The validator the class shares, started by the first test that validates. */
  private static synchronized KubernetesValidator validator() {
    if (validator == null) {
      try {
        validator =
            KubernetesValidator.start(
                tool("k8s-validate-venv/bin/python", null),
                DeployFiles.repo().resolve(".ci/validate-k8s.py"),
                DeployFiles.repo());
      } catch (IOException e) {
        throw new IllegalStateException("cannot start .ci/validate-k8s.py", e);
      }
    }
    return validator;
  }

  @AfterAll
  static void stopTheValidator() throws Exception {
    if (validator != null) {
      validator.close();
      validator = null;
    }
  }

  /** The tool in the cache of .ci/install-test-deps, else (if it has one) by name on the PATH. */
  private static String tool(String cached, String onPath) {
    Path candidate = TOOLS.resolve(cached);
    if (Files.isExecutable(candidate)) {
      return candidate.toString();
    }
    if (onPath != null) {
      for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        if (Files.isExecutable(Path.of(d, onPath))) {
          return Path.of(d, onPath).toString();
        }
      }
    }
    throw new AssertionError(
        candidate
            + " not found"
            + (onPath != null ? " (nor " + onPath + " on the PATH)" : "")
            + ". The Helm chart cannot be checked without it: run .ci/install-test-deps, which"
            + " builds helm from the Go module proxy and the schema validator's venv from PyPI"
            + " (set JVM_SENTINEL_TOOLS to use another cache directory).");
  }

  private static Result run(List<String> command) {
    try {
      // Output goes to a file: a full pipe can never block the tool, and the timeout holds.
      Path log = Files.createTempFile("tool", ".log");
      Path errors = Files.createTempFile("tool", ".err");
      Process process =
          new ProcessBuilder(command)
              .directory(DeployFiles.repo().toFile())
              .redirectOutput(log.toFile())
              .redirectError(errors.toFile())
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("did not finish in " + TIMEOUT_SECONDS + " s: " + command);
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      String stderr = Files.readString(errors, StandardCharsets.UTF_8);
      Files.delete(log);
      Files.delete(errors);
      return new Result(process.exitValue(), output, stderr);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + command, e);
    }
  }
}
