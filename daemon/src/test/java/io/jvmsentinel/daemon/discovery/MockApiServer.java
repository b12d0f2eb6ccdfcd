package io.jvmsentinel.daemon.discovery;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * fabric8's mock API server in CRUD mode (pods created, updated and deleted through {@link
 * #client()} are listed and watched as a real API server would), behind a proxy that can cut the
 * client under test off and let it back on the same port, and able to refuse every request as a
 * missing RBAC rule does.
 */
public final class MockApiServer implements AutoCloseable {
  static final String NODE_LABEL = "mock.node";
  private static final String NODE_FIELD_SELECTOR = "fieldSelector=spec.nodeName%3D";
  private final AtomicBoolean refusing = new AtomicBoolean();
  private final KubernetesCrudDispatcher pods =
      new KubernetesCrudDispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          paths.add(request.getPath());
          if (refusing.get()) {
            return new MockResponse()
                .setResponseCode(403)
                .setBody(
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                        + "\"reason\":\"Forbidden\",\"code\":403,\"message\":\"pods is"
                        + " forbidden: User \\\"system:serviceaccount:monitoring:jvm-sentinel\\\""
                        + " cannot list resource \\\"pods\\\" in API group \\\"\\\" at the"
                        + " cluster scope\"}");
          }
          return super.dispatch(nodeSelectorAsLabel(request));
        }
      };
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final KubernetesMockServer server =
      new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), pods, false);
  private final KubernetesClient client;
  private final CuttableProxy proxy;

  public MockApiServer() {
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
    proxy = new CuttableProxy(server.getPort());
  }

  /**
   * The mock evaluates field selectors on {@code metadata.name} and {@code metadata.namespace} only
   * (and lists nothing for {@code spec.nodeName}), so the node selector is evaluated as a label
   * selector on {@link #NODE_LABEL}, which {@link #runningPod} sets to the pod's node: pods of
   * other nodes never reach the client, as with a real API server.
   */
  private static RecordedRequest nodeSelectorAsLabel(RecordedRequest request) {
    String path = request.getPath();
    if (path == null || !path.contains(NODE_FIELD_SELECTOR)) {
      return request;
    }
    return new RecordedRequest(
        request.getHttpVersion(),
        request.method(),
        path.replace(NODE_FIELD_SELECTOR, "labelSelector=" + NODE_LABEL + "%3D"),
        request.getHeaders(),
        request.getBody());
  }

  /** The paths requested so far, with their query. */
  List<String> paths() {
    return List.copyOf(paths);
  }

  /** The URL for {@code discovery.kubernetes.apiServer}: through the proxy that can be cut. */
  public String url() {
    return "http://127.0.0.1:" + proxy.port();
  }

  /** A client to change the pods with (not the one under test): it bypasses the proxy. */
  public KubernetesClient client() {
    return client;
  }

  /** Every request is answered 403 Forbidden while true. */
  void refuse(boolean refuse) {
    refusing.set(refuse);
  }

  /** The API server goes down for the client under test: open watches break, connects fail. */
  void stop() {
    proxy.cut();
  }

  /** The API server is back, on the same port, with the pods it had. */
  void restart() {
    proxy.restore();
  }

  @Override
  public void close() {
    proxy.close();
    client.close();
    server.destroy();
  }

  /** A running pod with an IP, scheduled on {@code node}, with one container named "app". */
  public static PodBuilder runningPod(String namespace, String name, String ip, String node) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withLabels(Map.of(NODE_LABEL, node))
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer()
        .withName("app")
        .withImage("example/app")
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP(ip)
        .endStatus();
  }

  /**
   * A Secret {@code name} of {@code namespace} holding {@code values} (base64, as the API has it).
   */
  public static io.fabric8.kubernetes.api.model.Secret secret(
      String namespace, String name, Map<String, String> values) {
    Map<String, String> data = new HashMap<>();
    values.forEach(
        (key, value) ->
            data.put(
                key,
                java.util.Base64.getEncoder()
                    .encodeToString(value.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    return new io.fabric8.kubernetes.api.model.SecretBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withData(data)
        .build();
  }

  /** A running pod that opts in with its JMX port. */
  public static Pod annotatedPod(String namespace, String name, String ip, String node, int port) {
    return runningPod(namespace, name, ip, node)
        .editMetadata()
        .withAnnotations(
            Map.of("jvm-sentinel.io/scrape", "true", "jvm-sentinel.io/jmx-port", "" + port))
        .endMetadata()
        .build();
  }
}
