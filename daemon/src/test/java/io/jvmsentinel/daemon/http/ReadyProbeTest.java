package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.UnstartedTarget;
import io.jvmsentinel.daemon.config.HttpAuth;
import io.jvmsentinel.daemon.config.Secret;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open readiness probe names the down targets only to a caller who may read the API. */
class ReadyProbeTest {
  @TempDir Path tmp;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private WatchedTarget down;

  @AfterEach
  void close() {
    down.close();
  }

  @Test
  void withAuthOnlyACredentialedCallerLearnsWhichTargetIsDownAndWhere() throws Exception {
    down = UnstartedTarget.create("orders", registry, tmp);
    HttpAccess access = HttpAccess.of(new HttpAuth.Bearer(Secret.of("tok-1")), registry);
    HttpEndpoint.Route ready =
        new StatusRoutes(() -> List.of(down), name -> false, RedactedArguments.builtIn())
            .ready(access::credentialed);

    HttpEndpoint.Response anonymous = ready.get(request(Map.of()));
    HttpEndpoint.Response wrong = ready.get(request(Map.of("Authorization", "Bearer nope")));
    HttpEndpoint.Response credentialed =
        ready.get(request(Map.of("Authorization", "bearer  tok-1")));

    assertThat(anonymous.status()).isEqualTo(503);
    assertThat(body(anonymous))
        .isEqualTo("{\"status\":\"NOT_READY\",\"targets\":1,\"downTargets\":1}");
    assertThat(body(wrong)).isEqualTo(body(anonymous));
    assertThat(credentialed.status()).isEqualTo(503);
    assertThat(body(credentialed))
        .startsWith("{\"status\":\"NOT_READY\",\"targets\":1,\"downTargets\":1,\"down\":[")
        .contains("\"target\":\"orders\"", "\"address\":\"test target orders\"");
    assertThat(registry.get("jvm.sentinel.http.auth.failures").counters())
        .as("a probe without a credential is no failed login")
        .allSatisfy(counter -> assertThat(counter.count()).isZero());
  }

  @Test
  void withoutAuthEveryCallerLearnsIt() throws Exception {
    down = UnstartedTarget.create("orders", registry, tmp);
    HttpAccess open = HttpAccess.of(HttpAuth.NONE, registry);
    HttpEndpoint.Route ready =
        new StatusRoutes(() -> List.of(down), name -> false, RedactedArguments.builtIn())
            .ready(open::credentialed);

    assertThat(body(ready.get(request(Map.of())))).contains("\"down\":[{\"target\":\"orders\"");
  }

  @Test
  void aDownTargetSaysWhenTheLatestAttemptFailedUpToWhichItIsSeenDown() throws Exception {
    down = UnstartedTarget.create("orders", registry, tmp);
    StatusRoutes routes =
        new StatusRoutes(() -> List.of(down), name -> false, RedactedArguments.builtIn());
    assertThat(body(routes.targets().get(request(Map.of()))))
        .as("never tried: no failure yet")
        .contains("\"lastFailure\":null");

    down.start();

    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(body(routes.targets().get(request(Map.of()))))
                    .contains("\"error\":\"")
                    .containsPattern("\"lastFailure\":\"\\d{4}-\\d\\d-\\d\\dT[^\"]+Z\""));
    assertThat(body(routes.ready(r -> true).get(request(Map.of()))))
        .containsPattern("\"down\":\\[\\{.*\"lastFailure\":\"[^\"]+Z\"");
  }

  private static HttpEndpoint.Request request(Map<String, String> headers) {
    return new HttpEndpoint.Request(
        "GET",
        "/ready",
        "/ready",
        null,
        headers.entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))));
  }

  private static String body(HttpEndpoint.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8).strip();
  }
}
